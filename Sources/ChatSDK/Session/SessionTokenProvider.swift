/// Supplies tokens for a user (A1). The SDK calls it lazily, the first time
/// it needs to authenticate, and again when the refresh token is refused.
///
/// ```swift
/// struct MyProvider: SessionTokenProvider {
///     func provideTokens(forUserId userId: String) async throws -> TokenPair {
///         try await myBackend.chatTokens(for: userId)
///     }
/// }
/// ```
public protocol SessionTokenProvider: Sendable {
    func provideTokens(forUserId userId: String) async throws -> TokenPair
}
