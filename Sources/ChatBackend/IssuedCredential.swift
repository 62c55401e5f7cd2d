import ChatCore

/// A credential the app's backend issued for a user (A10): an access token
/// (never expires, revocable) or a session token (expires).
package struct IssuedCredential: Sendable, Hashable {
    /// The token to give the SDK's `connect`.
    package var token: String
    /// When it stops being accepted; nil for an access token.
    package var expiresAt: Instant?

    package init(token: String, expiresAt: Instant?) {
        self.token = token
        self.expiresAt = expiresAt
    }
}
