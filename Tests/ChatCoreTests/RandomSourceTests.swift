import Foundation
import Testing

@testable import ChatCore

/// The one randomness abstraction. The values pinned here were printed by
/// the code before `RandomSource` existed (the world's ids and jitter, a
/// seeded server's ids): the same seed must keep drawing the same bits in
/// the same order, or every transcript would change.
@Suite struct RandomSourceTests {
    @Test func seededRandomDrawsTheSameSequenceAsBefore() {
        var one = SeededRandom(seed: 1)
        #expect((0..<3).map { _ in one.next() } == [0x910A_2DEC_8902_5CC1, 0xBEEB_8DA1_658E_EC67, 0xF893_A2EE_FB32_555E])
        var answer = SeededRandom(seed: 42)
        #expect((0..<3).map { _ in answer.next() } == [13_679_457_532_755_275_413, 2_949_826_092_126_892_291, 5_139_283_748_462_763_858])
    }

    @Test func nextUInt64IsTheGeneratorsDraw() {
        let source = RandomSource(seed: 1)
        #expect((0..<3).map { _ in source.nextUInt64() } == [0x910A_2DEC_8902_5CC1, 0xBEEB_8DA1_658E_EC67, 0xF893_A2EE_FB32_555E])
    }

    /// The embedded world's sequence for seed 1: ids, jitter, a latency's
    /// jitter in range, as the world drew them before.
    @Test func theWorldsIdsFractionsAndIntegersAreUnchanged() {
        let source = RandomSource(seed: 1)
        #expect(source.makeID(prefix: "m-") == "m-89025cc1")
        #expect(source.makeID(prefix: "c-") == "c-658eec67")
        #expect(source.fraction() == 0.981_236_777_734_011_4)
        #expect(source.int(in: 0...5) == 2)
        #expect(source.int(in: 0...50) == 22)
        #expect(source.makeID(prefix: "x-") == "x-90150280")
    }

    /// A stage's ids carry its session's tag between prefix and digits.
    @Test func aTaggedSourceDrawsTheSameDigits() {
        let source = RandomSource(seed: 3, idTag: "k3")
        #expect(source.makeID(prefix: "m-") == "m-k3db018fed")
        #expect(source.fraction() == 0.482_447_238_871_827_7)
    }

    /// `chatbench serve --seed 7`: 16 digits, one whole draw per id.
    @Test func aSeededServersIdsAreUnchanged() {
        let source = RandomSource(seed: 7, idDigits: 16)
        #expect(source.makeID(prefix: "tok-") == "tok-63cbe1e459320dd7")
        #expect(source.makeID(prefix: "c-") == "c-044c3cd7f43c661c")
    }

    /// 32 digits are two draws, the first one first (an unseeded server's tokens).
    @Test func thirtyTwoDigitsAreTwoDraws() {
        #expect(RandomSource(seed: 7, idDigits: 32).makeID(prefix: "t-") == "t-63cbe1e459320dd7044c3cd7f43c661c")
        let system = RandomSource.system(idDigits: 32).makeID(prefix: "t-")
        #expect(system.count == 34 && system.dropFirst(2).allSatisfy(\.isHexDigit))
    }

    /// Ids and fractions come from the one draw, in the order they are asked for.
    @Test func idsAndFractionsShareTheDraws() {
        let source = RandomSource(seed: 1)
        #expect(source.fraction() == Double(0x8902_5CC1) / 4_294_967_296)
        #expect(source.makeID(prefix: "") == "658eec67")
        #expect(source.nextUInt64() == 0xF893_A2EE_FB32_555E)
    }

    @Test func copiesShareTheirGenerator() {
        let source = RandomSource(seed: 1)
        let copy = source
        #expect(source.makeID(prefix: "") == "89025cc1")
        #expect(copy.makeID(prefix: "") == "658eec67")
    }

    @Test func fractionsAreInRange() {
        let source = RandomSource.system()
        #expect((0..<1000).map { _ in source.fraction() }.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    /// A runtime's `makeID` and, unless it says otherwise, its jitter are
    /// its random source's.
    @Test func aRuntimeDrawsFromItsRandomSource() {
        let runtime = FixedRuntime()
        #expect(runtime.makeID(prefix: "m-") == "m-89025cc1")
        #expect(runtime.makeJitterSource().fraction() == Double(0x658E_EC67) / 4_294_967_296)
        #expect(runtime.now == .simulationEpoch)
    }
}

@Suite struct TimeSourceTests {
    @Test func readsItsClock() {
        #expect(TimeSource { .simulationEpoch }.now == .simulationEpoch)
    }

    @Test func theSystemClockIsTheDatesInMilliseconds() {
        let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let now = TimeSource.system.now.milliseconds
        let after = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        #expect(before <= now && now <= after)
    }

    @Test func replayedIdsComeFirstThenDrawsAsBefore() {
        let ids = ReplayedIDs(["m-": ["m-3f2a0000c0ffee00", "m-9c1b"]])
        let replaying = RandomSource(seed: 1, replaying: ids)
        let plain = RandomSource(seed: 1)
        #expect(replaying.makeID(prefix: "m-") == "m-3f2a0000c0ffee00")
        // Another prefix is drawn: the replayed ids take no draw.
        #expect(replaying.makeID(prefix: "c-") == plain.makeID(prefix: "c-"))
        #expect(replaying.makeID(prefix: "m-") == "m-9c1b")
        #expect(replaying.makeID(prefix: "m-") == plain.makeID(prefix: "m-"))
        // Copies share what is left.
        let shared = ReplayedIDs(["m-": ["m-1", "m-2"]])
        let first = RandomSource(seed: 1, replaying: shared)
        let copy = first
        #expect([first.makeID(prefix: "m-"), copy.makeID(prefix: "m-")] == ["m-1", "m-2"])
    }

    @Test func sleepsOnTheSystemClockUntilTheDeadline() async throws {
        let start = TimeSource.system.now
        try await TimeSource.sleepOnSystemClock(until: start - .seconds(1))
        try await TimeSource.sleepOnSystemClock(until: start + .milliseconds(30))
        #expect(TimeSource.system.now >= start + .milliseconds(30))
    }

    @Test func aCancelledSleepThrows() async {
        let sleeper = Task { try await TimeSource.sleepOnSystemClock(until: TimeSource.system.now + .seconds(60)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await TimeSource.sleepOnSystemClock(until: .simulationEpoch)
        }
        await #expect(throws: CancellationError.self) { try await late.value }
    }
}

/// A runtime on a stopped clock with seed 1.
private final class FixedRuntime: ChatRuntime {
    var executor: any SerialExecutor & TaskExecutor { fatalError("unused") }
    let clock = TimeSource { .simulationEpoch }
    let random = RandomSource(seed: 1)
    func sleep(until deadline: Instant, kind: WaitKind) async throws {}
}
