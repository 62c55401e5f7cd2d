import Testing

@testable import ChatCore

/// Seeded streams per purpose and device (issue 31: a release build ran
/// work ready at one instant in another order than a debug build, and a
/// jitter drawn from the one shared sequence changed with it).
@Suite struct RandomStreamsTests {
    @Test func aStreamIsTheSameOnEveryRunForItsSeedAndName() {
        let first = (0..<5).map { _ in RandomStreams(seed: 7).source("jitter phone").nextUInt64() }
        let streams = RandomStreams(seed: 7)
        let again = streams.source("jitter phone")
        #expect(first.allSatisfy { $0 == first[0] })
        #expect(again.nextUInt64() == first[0])
        #expect(RandomStreams(seed: 8).source("jitter phone").nextUInt64() != first[0], "another seed, another stream")
    }

    @Test func drawingFromOneStreamDoesNotMoveAnother() {
        let quiet = RandomStreams(seed: 1)
        let busy = RandomStreams(seed: 1)
        for _ in 0..<10 {
            _ = busy.source("jitter tablet").nextUInt64()
            _ = busy.source("latency -").nextUInt64()
        }
        let expected = (0..<4).map { _ in quiet.source("jitter phone").nextUInt64() }
        #expect((0..<4).map { _ in busy.source("jitter phone").nextUInt64() } == expected)
    }

    @Test func namesMakeDistinctStreamsAndTheSameNameTheSameOne() {
        let streams = RandomStreams(seed: 1)
        let names = ["jitter phone", "jitter tablet", "latency -", "latency phone", ""]
        let firsts = names.map { RandomStreams(seed: 1).source($0).nextUInt64() }
        #expect(Set(firsts).count == names.count)
        // The same name is one stream: a draw through one handle moves the other on.
        let fresh = RandomStreams(seed: 1).source("jitter phone")
        let expected = (fresh.nextUInt64(), fresh.nextUInt64())
        _ = streams.source("jitter phone").nextUInt64()
        #expect(streams.source("jitter phone").nextUInt64() == expected.1)
    }

    @Test func nextNumbersTheStreamsOfAPurposeInTheOrderAsked() {
        let streams = RandomStreams(seed: 3)
        let first = streams.next("jitter").nextUInt64()
        let second = streams.next("jitter").nextUInt64()
        let latency = streams.next("latency").nextUInt64()
        let named = RandomStreams(seed: 3)
        #expect(first == named.source("jitter 1").nextUInt64())
        #expect(second == named.source("jitter 2").nextUInt64())
        #expect(latency == named.source("latency 1").nextUInt64())
    }

    @Test func fnv1aMatchesItsPublishedVectors() {
        #expect(RandomStreams.fnv1a("") == 0xCBF2_9CE4_8422_2325)
        #expect(RandomStreams.fnv1a("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(RandomStreams.fnv1a("foobar") == 0x8594_4171_F739_67E8)
    }
}
