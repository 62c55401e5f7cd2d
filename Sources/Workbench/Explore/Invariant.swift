/// What must hold after every exploration run, whatever the faults.
public enum Invariant: String, Sendable, Hashable, CaseIterable {
    /// Every message the app sent is `sent` and on the server exactly once,
    /// or `failed` with a reason.
    case delivered = "every message sent once or failed"
    /// Per conversation, the server holds the app's messages in the order
    /// they were sent (those never failed and retried).
    case ordered = "order kept"
    /// A live watcher that says fresh shows exactly the server's data.
    case freshIsTrue = "fresh watchers equal the server"
    /// A run stays within its virtual-time budget.
    case bounded = "bounded run"
    /// The script's own `expect` lines hold.
    case expects = "the script's expects"
    /// A line of the script is not understood (a script error).
    case scriptError = "script runs"
}

/// One invariant that did not hold, with what was seen.
public struct Violation: Sendable, Hashable, CustomStringConvertible {
    public var invariant: Invariant
    public var detail: String

    public var description: String { "\(invariant.rawValue): \(detail)" }
}
