/// What ChatSDK and ChatBackend need from the world they run in: an executor
/// that every actor of a client runs on, a clock, timers and randomness.
///
/// In the embedded world (ChatSimulation) the executor is a single
/// deterministic queue pumped by the simulation and the clock is virtual; in
/// server mode they are real. Nothing in the SDK reads the system clock or
/// creates unstructured tasks without going through its runtime.
package protocol ChatRuntime: AnyObject, Sendable {
    /// The executor every actor of the SDK client runs on (its
    /// `unownedExecutor`) and that tasks spawned by the SDK prefer.
    var executor: any SerialExecutor & TaskExecutor { get }

    /// Where the time comes from (``now`` reads it): the device's wall
    /// clock in an app (it can jump: NTP, the user setting the date), the
    /// virtual clock in the embedded world.
    var clock: TimeSource { get }

    /// A clock that never jumps, for how long passed between two moments
    /// (the flight recorder's monotonic time). By default ``clock``: a
    /// virtual clock moves only forward, and only when it is moved. A
    /// runtime on the system's wall clock gives ``TimeSource/monotonic``.
    var monotonicClock: TimeSource { get }

    /// Where random bits come from: ``makeID(prefix:)`` draws from it.
    var random: RandomSource { get }

    /// Where a new client draws the jitter of its back-offs from, asked
    /// once per client. By default ``random``; the embedded world gives each
    /// client a stream of its own (``RandomStreams``, numbered in the order
    /// the clients are made), so that a jitter's value does not depend on
    /// how the draws of other clients and of identifiers interleave with it.
    func makeJitterSource() -> RandomSource

    /// Suspends until `deadline`. Throws `CancellationError` when cancelled.
    /// `kind` tells the simulation whether the wait is work in flight (a
    /// network round trip, a provider that takes time) that a command must
    /// wait for, recovery (back-off) that `settle` runs, or a lifecycle
    /// timer (expiry, refresh, typing) that fires only when the clock is
    /// moved on purpose.
    func sleep(until deadline: Instant, kind: WaitKind) async throws
}

/// Why a wake-up is scheduled, which decides who may move the clock to it
/// in the embedded world:
///
/// - `inFlight`: work on its way (a request or frame on the network, a
///   provider or delegate answering). Every command runs these to the end.
/// - `recovery`: the SDK getting back on its feet (reconnection back-off,
///   an outbox retry, a deferred logout). `settle` runs these too.
/// - `lifecycle`: time passing in the life of a session (token refresh and
///   expiry, typing that lapses, keep-alive). Only moving the clock on
///   purpose (`clock advance`, a bounded `wait`) fires them.
package struct WaitKind: Sendable, Hashable, CustomStringConvertible {
    package enum Category: String, Sendable, Hashable, CaseIterable {
        case inFlight, recovery, lifecycle
    }

    package var category: Category
    /// What the wake-up is for, in a few words ("refresh alice's tokens").
    package var purpose: String

    package init(_ category: Category, _ purpose: String) {
        self.category = category
        self.purpose = purpose
    }

    /// Work in flight, with no more precise purpose.
    package static let inFlight = WaitKind(.inFlight, "work in flight")
    package static func inFlight(_ purpose: String) -> WaitKind { WaitKind(.inFlight, purpose) }
    package static func recovery(_ purpose: String) -> WaitKind { WaitKind(.recovery, purpose) }
    package static func lifecycle(_ purpose: String) -> WaitKind { WaitKind(.lifecycle, purpose) }

    package var description: String { "\(category.rawValue): \(purpose)" }
}

extension ChatRuntime {
    /// The current time.
    package var now: Instant { clock.now }

    package var monotonicClock: TimeSource { clock }

    /// A fresh random identifier, `prefix` followed by hex digits.
    package func makeID(prefix: String) -> String { random.makeID(prefix: prefix) }

    package func makeJitterSource() -> RandomSource { random }

    package func sleep(for duration: Duration, kind: WaitKind) async throws {
        try await sleep(until: now + duration, kind: kind)
    }

    /// Starts `operation` as a task on this runtime's executor.
    @discardableResult
    package func spawn(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor, operation: operation)
    }
}
