import ChatTestSupport
import Foundation
import Testing

@testable import chatbench

/// An explore worker runs any number of runs in bounded memory (issue 29 §5,
/// issue 31): its peak resident size after 200 runs of one file is within a
/// few megabytes of its peak after 40. Each run's world was kept (0.4 MB a
/// run: 60 MB more over these 160 runs).
@Suite struct ExploreWorkerMemoryTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc"))
    func aWorkersMemoryStaysFlatOverRuns() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../examples/01-walking-skeleton.chat"
        ).standardized.path
        let scratch = try TemporaryFolder()
        let (process, input, output) = try ChatbenchBinary.start(["explore-worker", example, "--seed", "1"], scratch: scratch)
        defer {
            try? input.fileHandleForWriting.close()
            _ = try? process.waitForExit(timeout: .seconds(60))
            _ = scratch
        }
        var answered = 0
        var buffer = Data()
        func run(_ numbers: Range<Int>) throws -> Int {
            for number in numbers {
                try input.fileHandleForWriting.write(contentsOf: Data((WorkerRequest.run(number: number).json + "\n").utf8))
            }
            while answered < numbers.upperBound {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                buffer += chunk
                while let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer = buffer[(newline + 1)...]
                    if case .finished? = try WorkerAnswer.read(Substring(line)) { answered += 1 }
                }
            }
            let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let after40 = try run(0..<40)
        let after200 = try run(40..<200)
        #expect(answered == 200)
        #expect(after40 > 0)
        #expect(after200 - after40 < 15_000, "peak \(after40) kB after 40 runs, \(after200) kB after 200")
    }
}
