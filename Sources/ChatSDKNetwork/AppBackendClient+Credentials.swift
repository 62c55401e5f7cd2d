internal import ChatCore
import ChatSDK
import Foundation

/// The credentials an app's backend issues for its users besides token
/// pairs (``AppBackendClient/issueTokens(userId:)``): an access token for
/// `connect(userId:accessToken:)` and a session token for
/// `connect(userId:sessionToken:)`.
extension AppBackendClient {
    /// A credential the server issued for a user.
    public struct IssuedToken: Sendable, Hashable {
        /// What the app hands to `ChatClient.connect`.
        public let token: String
        /// When it stops working; nil for one that never expires (it can
        /// still be revoked).
        public let expiresAt: Date?

        public init(token: String, expiresAt: Date?) {
            self.token = token
            self.expiresAt = expiresAt
        }
    }

    /// An access token for a user, created if unknown (`POST
    /// /v1/app/access-tokens`): it never expires; ``revokeTokens(userId:)``
    /// ends it.
    public func accessToken(forUserId userId: String) async throws -> IssuedToken {
        let issued = try await issueAccessToken(userId: userId)
        return IssuedToken(token: issued.token, expiresAt: issued.expiresAt.map { Date($0) })
    }

    /// A session token for a user, created if unknown (`POST
    /// /v1/app/session-tokens`), valid for `ttl` (whole milliseconds) or,
    /// when nil, the app's `sessionTokenTTL` setting. The client asks its
    /// `SessionDelegate` for a new one when it expires.
    public func sessionToken(forUserId userId: String, ttl: Duration? = nil) async throws -> IssuedToken {
        let issued = try await issueSessionToken(userId: userId, ttlMilliseconds: ttl?.wholeMilliseconds)
        return IssuedToken(token: issued.token, expiresAt: issued.expiresAt.map { Date($0) })
    }
}
