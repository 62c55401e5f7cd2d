import ChatCore

/// One realtime subscription: whose events it receives, where they go, and
/// how far delivery has got.
struct Subscription: Sendable {
    var userId: String
    /// Takes an event (true) or asks to be given it again after
    /// ``Backend/resume(_:)`` (false: its consumer's queue is full).
    var sink: @Sendable (WireEvent) -> Bool
    /// The session whose access token opened it: closing that session
    /// (logout, revocation, merge) ends the subscription.
    var sessionId: String? = nil
    /// Told once, with the reason, when the backend ends the subscription.
    var onClose: (@Sendable (WireError) -> Void)? = nil
    /// The userSeq of the last event given to `sink`.
    var lastDelivered: Int64
    /// Set while some call is delivering to this subscription, so that a
    /// re-entrant or concurrent call leaves the work to it (events stay in
    /// order, never twice).
    var isDelivering = false
    /// Set when new events arrived while delivering: the deliverer looks again.
    var needsAnotherPass = false
    /// The sink refused an event: nothing more is delivered until ``Backend/resume(_:)``.
    var isPaused = false
}
