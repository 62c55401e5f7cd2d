import ChatCore
import Testing

@testable import ChatSDK

/// Reconnection back-off (D8, issue 6): doubling from 1 s up to 30 s, each
/// wait scaled by a jitter between half and all of it.
@Suite struct BackoffTests {
    @Test func doublesUpToThirtySecondsWithJitterBetweenHalfAndAll() {
        let low = (0..<8).map { RealtimeLinkMachine.backoff(attempt: $0, fraction: 0).wholeMilliseconds }
        let high = (0..<8).map { RealtimeLinkMachine.backoff(attempt: $0, fraction: 0.999_999).wholeMilliseconds }
        #expect(low == [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000])
        #expect(high == [999, 1999, 3999, 7999, 15999, 29999, 29999, 29999])
    }

    @Test func aFractionOutOfRangeIsClamped() {
        #expect(RealtimeLinkMachine.backoff(attempt: 0, fraction: -1) == .milliseconds(500))
        #expect(RealtimeLinkMachine.backoff(attempt: 0, fraction: 7) == .milliseconds(1000))
    }

    @Test func theRuntimesFractionIsInRangeAndSpreads() throws {
        struct LCG: RandomNumberGenerator {
            var n: UInt64 = 0
            mutating func next() -> UInt64 {
                n = n &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return n >> 32
            }
        }
        final class Counter: ChatRuntime {
            var executor: any SerialExecutor & TaskExecutor { fatalError("unused") }
            let clock = TimeSource { .simulationEpoch }
            let random = RandomSource(LCG())
            func sleep(until deadline: Instant, kind: WaitKind) async throws {}
        }
        let runtime = Counter()
        let fractions = (0..<200).map { _ in runtime.makeJitterSource().fraction() }
        #expect(fractions.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(Set(fractions.map { Int($0 * 10) }).count == 10, "fractions cover [0, 1)")
    }
}
