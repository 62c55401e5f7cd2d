import ChatCore
import Foundation

/// What the app's backend (or the workbench in server mode) inspects and
/// changes on a server with the app's secret (SPEC S1): users, their
/// conversations, sessions, devices and pushes, settings, credentials.
/// Errors are the server's `WireError`s (`unknownConversation`,
/// `badRequest` for a bad setting…) or `TransportError`s.
extension AppBackendClient {
    /// The app's users, in creation order (`GET /v1/app/users`).
    public func users() async throws -> [HTTPWire.AppUser] {
        try await get("/v1/app/users", as: [HTTPWire.AppUser].self)
    }

    /// A user's conversations, most recently updated first (empty for a user the app does not have).
    public func conversations(userId: String) async throws -> [WireConversation] {
        try await get(Self.userPath(userId, "conversations"), as: [WireConversation].self)
    }

    /// A user's open server sessions, oldest first.
    public func sessions(userId: String) async throws -> [HTTPWire.AppSession] {
        try await get(Self.userPath(userId, "sessions"), as: [HTTPWire.AppSession].self)
    }

    /// The ids of the devices subscribed to a user's pushes.
    public func pushSubscriptions(userId: String) async throws -> [String] {
        try await get(Self.userPath(userId, "devices"), as: [String].self)
    }

    /// The pushes sent for a user's messages, oldest first.
    public func pushes(userId: String) async throws -> [HTTPWire.AppPush] {
        try await get(Self.userPath(userId, "pushes"), as: [HTTPWire.AppPush].self)
    }

    /// The messages of one of the app's conversations, oldest first; throws
    /// `unknownConversation` when the app has no such conversation.
    public func messages(conversationId: String) async throws -> [WireMessage] {
        try await get("/v1/app/conversations/\(HTTPWire.segment(conversationId))/messages", as: [WireMessage].self)
    }

    /// The app's settings, in the server's order.
    public func settings() async throws -> [HTTPWire.AppSetting] {
        try await get("/v1/app/settings", as: HTTPWire.AppSettingsBody.self).settings
    }

    /// Changes settings, all or none (`badRequest` names a bad key or value); returns the new settings.
    @discardableResult
    public func updateSettings(_ changes: [HTTPWire.AppSetting]) async throws -> [HTTPWire.AppSetting] {
        try await post("/v1/app/settings", HTTPWire.AppSettingsBody(settings: changes), as: HTTPWire.AppSettingsBody.self).settings
    }

    /// Expires a user's access tokens now (`unknownUser` for a user the app does not have).
    public func expireAccessTokens(userId: String) async throws {
        _ = try await post(Self.userPath(userId, "tokens/expire"), Empty(), as: Empty.self)
    }

    /// Revokes every token of a user, closing their sessions and event streams.
    public func revokeTokens(userId: String) async throws {
        _ = try await post(Self.userPath(userId, "tokens/revoke"), Empty(), as: Empty.self)
    }

    /// An app-issued access token for a user (created if unknown): it never expires, it can be revoked.
    public func issueAccessToken(userId: String) async throws -> HTTPWire.IssuedCredentialBody {
        try await post("/v1/app/access-tokens", HTTPWire.IssueCredentialBody(userId: userId), as: HTTPWire.IssuedCredentialBody.self)
    }

    /// An app-issued session token for a user (created if unknown), valid for
    /// `ttlMilliseconds` or the app's `sessionTokenTTL`.
    public func issueSessionToken(userId: String, ttlMilliseconds: Int64? = nil) async throws -> HTTPWire.IssuedCredentialBody {
        try await post(
            "/v1/app/session-tokens", HTTPWire.IssueCredentialBody(userId: userId, ttlMilliseconds: ttlMilliseconds),
            as: HTTPWire.IssuedCredentialBody.self)
    }

    static func userPath(_ userId: String, _ rest: String) -> String {
        "/v1/app/users/\(HTTPWire.segment(userId))/\(rest)"
    }
}
