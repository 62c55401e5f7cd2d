/// What must hold after every exploration run, whatever the faults.
package enum Invariant: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every message the app sent is `sent` and on the server exactly once,
    /// or `failed` with a reason.
    case delivered = "every message sent once or failed"
    /// Per conversation, the server holds the app's messages in the order
    /// they were sent (those never failed and retried).
    case ordered = "order kept"
    /// A live watcher that says fresh shows exactly the server's data.
    case freshIsTrue = "fresh watchers equal the server"
    /// No live watcher shows data of another user or of another client.
    case ownData = "watchers show only their user's data"
    /// Session and connection states change only as the SDK allows
    /// (`StateTransitions`).
    case transitions = "allowed state transitions"
    /// A client whose user signed out or changed holds nothing of that
    /// user: no watcher, no cached conversation or message, no outbox.
    case signedOutKeepsNothing = "a signed-out user leaves nothing"
    /// The run did not crash (a trap, a fatal error, a signal).
    case crash = "no crash"
    /// The run ended within its worker's real-time limit (`explore
    /// --timeout`, `shrink --timeout`): one still running then was killed.
    case hang = "no hang"
    /// A run stays within its virtual-time budget.
    case bounded = "bounded run"
    /// The script's own `expect` lines hold.
    case expects = "the script's expects"
    /// A line of the script is not understood (a script error).
    case scriptError = "script runs"
}

/// One invariant that did not hold, with what was seen.
package struct Violation: Sendable, Hashable, Codable, CustomStringConvertible {
    package var invariant: Invariant
    package var detail: String
    /// For a failed expect: what the messages its line names are
    /// (``WorkbenchSession/referents(of:)``), part of the signature a shrunk
    /// script must keep, not of what a report prints.
    package var referents: String?

    package init(invariant: Invariant, detail: String, referents: String? = nil) {
        self.invariant = invariant
        self.detail = detail
        self.referents = referents
    }

    package var description: String { "\(invariant.rawValue): \(detail)" }
}
