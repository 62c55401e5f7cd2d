import ChatCore

/// A device of the world whose wall clock can be set while it runs, as a
/// phone's is (NTP, the user changing the date): a client runtime whose
/// ``clock`` is the world's virtual clock moved by an offset that
/// ``setWallClock(by:)`` changes at once, and whose ``monotonicClock`` is
/// the world's clock unmoved. Everything else is the world's: its
/// executor, its randomness, its timers.
///
/// It sleeps as the real-time runtime does: for the time between its wall
/// clock's reading and the deadline when the sleep begins, so a wake-up
/// already scheduled is not moved by a later change of the date.
///
/// ```swift
/// let device = WallClockRuntime(world: world)
/// var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: device)
/// device.setWallClock(by: .seconds(-3600))   // the user sets the clock back an hour
/// ```
package final class WallClockRuntime: ChatRuntime, Sendable {
    package let world: World
    private let offset: LockedValue<Int64>
    package let clock: TimeSource

    /// A device whose wall clock reads the world's, until it is set.
    package init(world: World) {
        self.world = world
        let offset = LockedValue<Int64>(0)
        self.offset = offset
        clock = TimeSource { [world] in Instant(milliseconds: world.now.milliseconds + offset.withLock { $0 }) }
    }

    /// Moves the wall clock by `change` (negative: back), from now on.
    package func setWallClock(by change: Duration) {
        offset.withLock { $0 += change.wholeMilliseconds }
    }

    /// How far the wall clock has been set from the world's.
    package var wallClockOffset: Duration { .milliseconds(offset.withLock { $0 }) }

    package var executor: any SerialExecutor & TaskExecutor { world.executor }
    package var monotonicClock: TimeSource { world.clock }
    package var random: RandomSource { world.random }
    package func makeJitterSource() -> RandomSource { world.makeJitterSource() }

    package func sleep(until deadline: Instant, kind: WaitKind) async throws {
        let moved = offset.withLock { $0 }
        try await world.sleep(until: Instant(milliseconds: deadline.milliseconds - moved), kind: kind)
    }
}
