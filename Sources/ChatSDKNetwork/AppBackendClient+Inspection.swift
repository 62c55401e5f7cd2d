import ChatAPI
package import ChatCore
import ChatSDK
import Foundation

/// What the app's backend (or the workbench in server mode) inspects and
/// changes on a server with the app's secret (SPEC S1): users, their
/// conversations, sessions, devices and pushes, settings, credentials.
/// Errors are the server's `WireError`s (`unknownConversation`,
/// `badRequest` for a bad setting…) or `TransportError`s.
extension AppBackendClient {
    /// The app's users, in creation order (`GET /v1/app/users`).
    package func users() async throws -> [HTTPWire.AppUser] {
        try await call("appUsers") { try await $0.appUsers().ok.body.json }
    }

    /// A user's conversations, most recently updated first (empty for a user the app does not have).
    package func conversations(userId: String) async throws -> [WireConversation] {
        try await call("appUserConversations") { try await $0.appUserConversations(path: .init(id: userId)).ok.body.json }
    }

    /// A user's open server sessions, oldest first.
    package func sessions(userId: String) async throws -> [HTTPWire.AppSession] {
        try await call("appUserSessions") { try await $0.appUserSessions(path: .init(id: userId)).ok.body.json }
    }

    /// The devices subscribed to a user's pushes, with their push tokens.
    package func pushSubscriptions(userId: String) async throws -> [HTTPWire.AppDevice] {
        try await call("appUserDevices") { try await $0.appUserDevices(path: .init(id: userId)).ok.body.json }
    }

    /// The pushes sent for a user's messages, oldest first.
    package func pushes(userId: String) async throws -> [HTTPWire.AppPush] {
        try await call("appUserPushes") { try await $0.appUserPushes(path: .init(id: userId)).ok.body.json }
    }

    /// The messages of one of the app's conversations, oldest first; throws
    /// `unknownConversation` when the app has no such conversation.
    package func messages(conversationId: String) async throws -> [WireMessage] {
        try await call("appConversationMessages") { try await $0.appConversationMessages(path: .init(id: conversationId)).ok.body.json }
    }

    /// The app's settings, in the server's order.
    package func settings() async throws -> [HTTPWire.AppSetting] {
        try await call("appSettings", as: HTTPWire.AppSettingsBody.self) { try await $0.appSettings().ok.body.json }.settings
    }

    /// Changes settings, all or none (`badRequest` names a bad key or value); returns the new settings.
    @discardableResult
    package func updateSettings(_ changes: [HTTPWire.AppSetting]) async throws -> [HTTPWire.AppSetting] {
        let body = try Self.settingsBody(changes)
        return try await call("updateAppSettings", as: HTTPWire.AppSettingsBody.self) {
            try await $0.updateAppSettings(body: .json(body)).ok.body.json
        }.settings
    }

    /// The settings docs/openapi.json lists, in its order (the server's).
    static let settingKeys: [String] =
        Components.Schemas.AppSetting.Case1Payload.KeyPayload.allCases.map(\.rawValue)
        + Components.Schemas.AppSetting.Case2Payload.KeyPayload.allCases.map(\.rawValue)
        + Components.Schemas.AppSetting.Case3Payload.KeyPayload.allCases.map(\.rawValue)
        + Components.Schemas.AppSetting.Case4Payload.KeyPayload.allCases.map(\.rawValue)

    /// Changes as the document's body. A key the document does not list
    /// cannot be sent: it is refused here with the server's words
    /// (`badRequest`), and nothing changes. (The server checks changes in
    /// order; a bad value before an unknown key is named by the server when
    /// the key is known, here the unknown key is named first.)
    static func settingsBody(_ changes: [HTTPWire.AppSetting]) throws -> Components.Schemas.AppSettings {
        if let unknown = changes.first(where: { !settingKeys.contains($0.key) }) {
            throw WireError(
                .badRequest,
                "Unknown setting \(String(unknown.key.prefix(100)).debugDescription); the settings are \(settingKeys.joined(separator: ", "))"
            )
        }
        return try HTTPTransport.body(HTTPWire.AppSettingsBody(settings: changes), of: "updateAppSettings")
    }

    /// Expires a user's access tokens now (`POST /v1/app/users/{id}/tokens/expire`;
    /// `unknownUser` for a user the app does not have): their clients renew
    /// through their token provider or delegate on their next request.
    public func expireAccessTokens(userId: String) async throws {
        try await call("expireAccessTokens") { _ = try await $0.expireAccessTokens(path: .init(id: userId)).noContent }
    }

    /// Revokes every token of a user, closing their sessions and event
    /// streams (`POST /v1/app/users/{id}/tokens/revoke`): their clients must
    /// sign in again.
    public func revokeTokens(userId: String) async throws {
        try await call("revokeTokens") { _ = try await $0.revokeTokens(path: .init(id: userId)).noContent }
    }

    /// An app-issued access token for a user (created if unknown): it never expires, it can be revoked.
    package func issueAccessToken(userId: String) async throws -> HTTPWire.IssuedCredentialBody {
        try await call("issueAccessToken") { try await $0.issueAccessToken(body: .json(.init(userId: userId))).ok.body.json }
    }

    /// An app-issued session token for a user (created if unknown), valid for
    /// `ttlMilliseconds` or the app's `sessionTokenTTL`.
    package func issueSessionToken(userId: String, ttlMilliseconds: Int64? = nil) async throws -> HTTPWire.IssuedCredentialBody {
        try await call("issueSessionToken") {
            try await $0.issueSessionToken(body: .json(.init(userId: userId, ttlMilliseconds: ttlMilliseconds))).ok.body.json
        }
    }
}
