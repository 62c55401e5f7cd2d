import Testing

@testable import Workbench

@Suite struct IDIndexTests {
    /// Keys kept by the caller, as `MessageTable` keeps its ids.
    private struct Table {
        var keys: [String] = []
        var index = IDIndex()

        mutating func add(_ key: String, hash: ((String) -> Int)? = nil) {
            let hashOf = hash ?? { $0.hashValue }
            let keys = self.keys + [key]
            let position = Int32(keys.count - 1)
            index.insert(position, hash: hashOf(key), hashOf: { hashOf(keys[Int($0)]) }, matches: { keys[Int($0)] == key })
            self.keys = keys
        }

        func find(_ key: String, hash: ((String) -> Int)? = nil) -> Int32? {
            index.find(hash: (hash ?? { $0.hashValue })(key)) { keys[Int($0)] == key }
        }
    }

    @Test func anEmptyIndexFindsNothing() {
        #expect(Table().find("msg-1") == nil)
    }

    @Test func everyKeyIsFoundAcrossGrowth() {
        var table = Table()
        for i in 0..<5_000 { table.add("msg-\(i)") }
        #expect(table.index.count == 5_000)
        for i in stride(from: 0, to: 5_000, by: 7) { #expect(table.find("msg-\(i)") == Int32(i)) }
        #expect(table.find("msg-5000") == nil)
    }

    @Test func collidingHashesProbeOnAndWrapAround() {
        // Every key hashes alike, near the end of the slots: probing wraps.
        let constant: (String) -> Int = { _ in -1 }
        var table = Table()
        for i in 0..<100 { table.add("k\(i)", hash: constant) }
        for i in 0..<100 { #expect(table.find("k\(i)", hash: constant) == Int32(i)) }
        #expect(table.find("k100", hash: constant) == nil)
    }

    @Test func theSameKeyAgainTakesTheNewPosition() {
        var table = Table()
        table.add("a")
        table.add("b")
        table.add("a")
        #expect(table.index.count == 2)
        #expect(table.find("a") == 2)
        #expect(table.find("b") == 1)
    }
}
