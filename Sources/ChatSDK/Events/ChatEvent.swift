/// Something the client wants its app to know about, in order.
public enum ChatEvent: Sendable, Hashable {
    case sessionChanged(SessionState)
    case connectionChanged(ConnectionState)
    /// The client carries on in a degraded way (e.g. without a disk cache),
    /// or the app did something risky (A12).
    case warning(String)
    /// The server refused the credential (A6); the delegate is asked next.
    case authenticationFailed(ChatError)
    /// A session token was renewed through the `SessionDelegate` (A10).
    case sessionWasRefreshed
    /// The session was closed because no new session token came (A10).
    case sessionWasClosed
    /// The `SessionDelegate` failed to give a session token (A10).
    case sessionDidHaveError(ChatError)
    /// One of the user's messages on this device entered a new send state
    /// (`toBeSent`, `sending`, `sent`, `failed`): every state it enters,
    /// once, in order. The message is as it is now.
    case messageStateChanged(Message)
}
