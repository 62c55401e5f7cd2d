internal import ChatBackend
internal import ChatCore
internal import ChatSimulation
import Foundation

/// What the app's backend does with its users' credentials, in a
/// ``ChatTestWorld``: expire and revoke their tokens, sign the JWTs of
/// `loginUser(jwt:)`, issue the access and session tokens of `connect`.
public struct TestCredentials: Sendable {
    let driver: WorldDriver

    /// The user's access tokens expire now: the SDK renews them on its next
    /// request (through its token provider or delegate).
    public func expireAccessTokens(userId: String) async {
        await driver.perform { $0.backend.expireAccessTokens(userId: userId) }
    }

    /// Every token of the user is revoked and their sessions close: the
    /// SDK's user must sign in again.
    public func revokeTokens(userId: String) async {
        await driver.perform { $0.backend.revokeTokens(userId: userId) }
    }

    /// A JWT for `loginUser(jwt:)`, signed with the app's secret, for the
    /// user `userId`, expiring `expiresIn` from the virtual clock's now
    /// (whole seconds, as the `exp` claim counts them).
    public func signJWT(userId: String, expiresIn: Duration = .seconds(3600)) async -> String {
        await driver.perform { world in
            let expiry = world.now + expiresIn
            let claims = AppJWT.Claims(externalId: userId, exp: Date(timeIntervalSince1970: Double(expiry.milliseconds / 1000)))
            return AppJWT.sign(claims, secret: World.jwtSecret)
        }
    }

    /// An access token for `connect(userId:accessToken:)`; it never expires.
    public func accessToken(forUserId userId: String) async throws -> String {
        try await driver.perform { world in
            try TestAgent.chatError { try world.backend.issueAccessToken(apiKey: World.apiKey, userId: userId).token }
        }
    }

    /// A session token for `connect(userId:sessionToken:)`, valid for `ttl`
    /// or the app's `sessionTokenTTL`.
    public func sessionToken(forUserId userId: String, ttl: Duration? = nil) async throws -> String {
        try await driver.perform { world in
            try TestAgent.chatError { try world.backend.issueSessionToken(apiKey: World.apiKey, userId: userId, ttl: ttl).token }
        }
    }
}
