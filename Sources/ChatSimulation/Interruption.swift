import Synchronization

/// A request to stop running the world now (Ctrl-C in the REPL).
///
/// The world checks it between jobs and wake-ups, so a command that would
/// run for a long time (or for ever) returns with the world as it is: every
/// object and handle stays, and the next command goes on from there.
public final class Interruption: Sendable {
    private let flag = Atomic<Bool>(false)
    /// How far the world has run: a tick per batch of jobs and per wake-up.
    private let tickCount = Atomic<Int>(0)
    /// The tick at which to request an interruption (0: none).
    private let stopTick = Atomic<Int>(0)

    /// A fresh one, which nothing has requested. Whoever may stop a world
    /// (the REPL's Ctrl-C, a replay stopping where a step was interrupted)
    /// gives it the one it requests.
    package init() {}

    /// Whether an interruption was requested and not yet cleared.
    package var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Requests an interruption. Async-signal-safe: an atomic store.
    package func request() { flag.store(true, ordering: .relaxed) }

    /// Clears the request; returns whether there was one.
    @discardableResult
    package func clear() -> Bool { flag.exchange(false, ordering: .relaxed) }

    /// How far the world that checks this has run: one tick per batch of
    /// jobs it ran and per wake-up it fired, the units between which it
    /// checks for a request. Deterministic for a world of a given seed, so a
    /// replay can stop where Ctrl-C stopped a step (``stop(atTick:)``).
    package var ticks: Int { tickCount.load(ordering: .relaxed) }

    /// Counts a batch of jobs or a wake-up; requests the interruption when
    /// the tick ``stop(atTick:)`` named is reached.
    package func tick() {
        let now = tickCount.wrappingAdd(1, ordering: .relaxed).newValue
        if now == stopTick.load(ordering: .relaxed) { request() }
    }

    /// Requests the interruption when ``ticks`` reaches `tick` (nil: never).
    package func stop(atTick tick: Int?) { stopTick.store(tick ?? 0, ordering: .relaxed) }
}
