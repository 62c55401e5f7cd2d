import ChatCore
import Testing

@testable import Workbench

@Suite struct EmissionHistoryTests {
    private func emission(_ i: Int, length: Int = 0) -> EmissionHistory.Emission {
        let text = "w1 emits (fresh, refreshed) \(i) items: m\(i) agent \"message \(i)\" · é"
        return .init(time: Instant(milliseconds: Int64(1_000 + i)), text: text + String(repeating: "x", count: length))
    }

    @Test func anEmptyHistoryHasNothing() {
        let history = EmissionHistory()
        #expect(history.isEmpty)
        #expect(history.map(\.text) == [])
    }

    @Test func linesComeBackAsTheyWereAppendedAcrossChunks() {
        var history = EmissionHistory()
        var expected: [EmissionHistory.Emission] = []
        // Enough lines to fill several chunks, and some longer than a chunk.
        for i in 0..<3_000 {
            let line = emission(i, length: i % 1_000 == 999 ? 2 * EmissionHistory.chunkSize : i % 7)
            history.append(line)
            expected.append(line)
        }
        #expect(history.count == expected.count)
        #expect(Array(history) == expected)
        #expect(history[2_999] == expected[2_999])
        for i in [0, 1, 63, 64, 65, 1_000, 2_998] { #expect(history[i] == expected[i]) }
    }

    @Test func emptyLinesAndALineThatFillsAChunkExactly() {
        var history = EmissionHistory()
        let full = String(repeating: "y", count: EmissionHistory.chunkSize)
        let lines = ["", full, "", "after", full, full, ""]
        for (i, line) in lines.enumerated() { history.append(.init(time: Instant(milliseconds: Int64(i)), text: line)) }
        #expect(history.map(\.text) == lines)
        #expect(history.map(\.time) == lines.indices.map { Instant(milliseconds: Int64($0)) })
    }
}
