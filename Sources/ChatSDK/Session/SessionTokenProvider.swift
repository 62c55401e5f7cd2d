import Foundation

/// Supplies tokens for a user (A1). The SDK calls it lazily, the first time
/// it needs to authenticate, and again when the refresh token is refused.
///
/// ```swift
/// struct MyProvider: SessionTokenProvider {
///     func provideTokens(forUserId userId: String) async throws -> ChatTokens {
///         try await myBackend.chatTokens(for: userId)
///     }
/// }
/// ```
public protocol SessionTokenProvider: Sendable {
    /// The tokens the app's backend minted for `userId`.
    func provideTokens(forUserId userId: String) async throws -> ChatTokens
}

/// An access token and the refresh token that renews it, as the app's
/// backend mints them for a user (A1).
public struct ChatTokens: Sendable, Hashable {
    /// What authenticates the user's requests until `accessExpiresAt`.
    public var accessToken: String
    /// When the access token stops being accepted; the SDK refreshes it a little before.
    public var accessExpiresAt: Date
    /// What renews the access token until `refreshExpiresAt`.
    public var refreshToken: String
    /// When the refresh token stops being accepted; the provider is asked again after.
    public var refreshExpiresAt: Date

    /// Tokens as the app's backend returned them. Times are kept to the millisecond.
    public init(accessToken: String, accessExpiresAt: Date, refreshToken: String, refreshExpiresAt: Date) {
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
    }
}
