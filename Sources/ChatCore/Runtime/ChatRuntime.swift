/// What ChatSDK and ChatBackend need from the world they run in: an executor
/// that every actor of a client runs on, a clock, timers and randomness.
///
/// In the embedded world (ChatSimulation) the executor is a single
/// deterministic queue pumped by the simulation and the clock is virtual; in
/// server mode they are real. Nothing in the SDK reads the system clock or
/// creates unstructured tasks without going through its runtime.
public protocol ChatRuntime: AnyObject, Sendable {
    /// The executor every actor of the SDK client runs on (its
    /// `unownedExecutor`) and that tasks spawned by the SDK prefer.
    var executor: any SerialExecutor & TaskExecutor { get }

    /// The current time.
    var now: Instant { get }

    /// Suspends until `deadline`. Throws `CancellationError` when cancelled.
    /// `kind` tells the simulation whether the wait is work in flight (a
    /// network round trip, a provider that takes time) that a command must
    /// wait for, or a timer (expiry, back-off, heartbeat) that fires only when
    /// the clock reaches it.
    func sleep(until deadline: Instant, kind: WaitKind) async throws

    /// A fresh random identifier, `prefix` followed by hex digits.
    func makeID(prefix: String) -> String

    /// Reports something worth showing (a state change, an event) to whoever
    /// observes the world; the workbench turns these into transcript lines.
    func trace(_ source: String, _ message: String)
}

public enum WaitKind: Sendable, Hashable {
    case inFlight
    case timer
}

extension ChatRuntime {
    /// A number in [0, 1) from the runtime's randomness (seeded in the
    /// embedded world): jitter for back-offs. Drawn through `makeID`, so
    /// that every runtime has it and a seeded one stays reproducible.
    public func randomFraction() -> Double {
        let digits = makeID(prefix: "").suffix(8)
        return Double(UInt32(digits, radix: 16) ?? 0) / 4_294_967_296
    }

    public func sleep(for duration: Duration, kind: WaitKind) async throws {
        try await sleep(until: now + duration, kind: kind)
    }

    /// Starts `operation` as a task on this runtime's executor.
    @discardableResult
    public func spawn(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: executor, operation: operation)
    }
}
