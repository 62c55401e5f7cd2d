import Synchronization

/// A request to stop running the world now (Ctrl-C in the REPL).
///
/// The world checks it between jobs and wake-ups, so a command that would
/// run for a long time (or for ever) returns with the world as it is: every
/// object and handle stays, and the next command goes on from there.
public final class Interruption: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    /// The process's own, which a signal handler sets (a signal handler can
    /// reach only global state). Worlds use it unless given another.
    public static let shared = Interruption()

    /// Whether an interruption was requested and not yet cleared.
    package var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Requests an interruption. Async-signal-safe: an atomic store.
    package func request() { flag.store(true, ordering: .relaxed) }

    /// Clears the request; returns whether there was one.
    @discardableResult
    package func clear() -> Bool { flag.exchange(false, ordering: .relaxed) }
}
