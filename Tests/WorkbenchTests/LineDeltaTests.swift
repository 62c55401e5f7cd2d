import Testing

@testable import Workbench

@Suite struct LineDeltaTests {
    private func roundTrip(_ line: String, after previous: String?) -> [UInt8] {
        let before = previous.map { Array($0.utf8) }
        let encoded = LineDelta.encode(Array(line.utf8), after: before)
        let decoded = LineDelta.decode(encoded[...], after: before ?? [])
        #expect(String(decoding: decoded, as: UTF8.self) == line, "\(line) after \(previous ?? "nothing")")
        return encoded
    }

    private func emission(_ n: Int) -> String {
        let labels = (0..<3).map { "m\(n - $0) agent \"message \(n - $0)\"" }
        return "w1 emits (fresh, refreshed) 20 items: \(labels.joined(separator: " · ")) · …"
    }

    @Test func consecutiveEmissionsKeepAFractionOfTheirBytes() {
        for n in [5, 99, 100, 12_345] {
            let line = emission(n)
            let encoded = roundTrip(line, after: emission(n - 1))
            #expect(encoded.count * 2 < line.utf8.count, "\(encoded.count) of \(line.utf8.count)")
        }
    }

    @Test func aLineWithNothingBeforeItIsWrittenWhole() {
        let encoded = roundTrip("w1 emits (cached, refreshing) 0 items", after: nil)
        #expect(encoded.first == 0)
        #expect(roundTrip("", after: nil) == [0])
    }

    @Test func linesThatShareLittleOrEverything() {
        _ = roundTrip("", after: "something")
        _ = roundTrip("something", after: "")
        _ = roundTrip("same line", after: "same line")
        _ = roundTrip("abc", after: "xyz")
        _ = roundTrip("a prefix then différent ünïcode · …", after: "a prefix and then différent ünïcode · …")
        _ = roundTrip("tail: shared run of bytes in the middle, end", after: "head: shared run of bytes in the middle")
        _ = roundTrip("w2 ended: networkFailure — lost", after: emission(7))
        // Never longer than the line written whole.
        let unrelated = "0123456789"
        #expect(roundTrip(unrelated, after: "abcdefghij").count == unrelated.utf8.count + 1)
    }

    @Test func aLongLineIsWrittenWhole() {
        let long = String(repeating: "x", count: Int(UInt16.max) + 1)
        #expect(roundTrip(long, after: long).first == 0)
    }

    @Test func arbitraryLinesRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab ·é\"m0123")
        var previous: String?
        for _ in 0..<500 {
            let length = Int.random(in: 0..<60, using: &generator)
            let line = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            _ = roundTrip(line, after: previous)
            previous = Bool.random(using: &generator) ? line : previous
        }
    }
}
