import ChatCore

/// A credential the app's backend issued for a user (A10): an access token
/// (never expires, revocable) or a session token (expires).
public struct IssuedCredential: Sendable, Hashable {
    /// The token to give the SDK's `connect`.
    public var token: String
    /// When it stops being accepted; nil for an access token.
    public var expiresAt: Instant?

    public init(token: String, expiresAt: Instant?) {
        self.token = token
        self.expiresAt = expiresAt
    }
}
