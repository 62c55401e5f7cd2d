import ChatCore
import Foundation

/// One app's view of the backend, as its own backend sees it with the app's
/// secret (SPEC S1, S2): its users, their conversations, sessions, devices
/// and pushes, its settings, and the credentials it issues.
///
/// Both the server's `/v1/app/…` routes and the workbench's embedded world
/// answer from it, so that they answer the same. Another app's users and
/// conversations do not exist here: their lists are empty, and a
/// conversation of another app is `unknownConversation`.
///
/// Every id a method takes is normalised first (``Identifier``), as the
/// backend's requests are: either spelling names the one user or conversation.
///
/// ```swift
/// let app = backend.scope(apiKey: "demo-key")
/// for user in app.users() { print(user.id, user.sessionCount) }
/// ```
package struct AppScope: Sendable {
    package let backend: Backend
    package let apiKey: String

    package init(backend: Backend, apiKey: String) {
        self.backend = backend
        self.apiKey = Identifier.normalized(apiKey)
    }

    /// The app's users, in creation order.
    package func users() -> [HTTPWire.AppUser] {
        backend.users().filter { $0.apiKey.isSameIdentifier(as: apiKey) }.map { user in
            HTTPWire.AppUser(
                id: user.id, isAnonymous: user.isAnonymous, nickname: user.nickname, attributes: user.attributes,
                conversationCount: backend.conversations(userId: user.id).count,
                sessionCount: backend.sessionCount(userId: user.id))
        }
    }

    /// Whether the user exists and belongs to this app.
    package func hasUser(_ userId: String) -> Bool {
        let userId = Identifier.normalized(userId)
        return backend.apiKey(ofUser: userId)?.isSameIdentifier(as: apiKey) == true
    }

    /// A user's conversations, most recently updated first.
    package func conversations(userId: String) -> [WireConversation] {
        let userId = Identifier.normalized(userId)
        return hasUser(userId) ? backend.conversations(userId: userId) : []
    }

    /// The messages of one of the app's conversations, oldest first; throws
    /// `unknownConversation` for a conversation the app does not have.
    package func messages(conversationId: String) throws(WireError) -> [WireMessage] {
        let conversationId = Identifier.normalized(conversationId)
        try requireConversation(conversationId)
        return try backend.messages(conversationId: conversationId)
    }

    /// A user's open sessions, oldest first.
    package func sessions(userId: String) -> [HTTPWire.AppSession] {
        let userId = Identifier.normalized(userId)
        guard hasUser(userId) else { return [] }
        return backend.sessions(userId: userId).map {
            HTTPWire.AppSession(authenticationType: $0.authenticationType, deviceId: $0.deviceId)
        }
    }

    /// The devices subscribed to a user's pushes, with their push tokens.
    package func pushSubscriptions(userId: String) -> [HTTPWire.AppDevice] {
        let userId = Identifier.normalized(userId)
        guard hasUser(userId) else { return [] }
        return backend.pushSubscriptions(userId: userId).map { HTTPWire.AppDevice(deviceId: $0.deviceId, pushToken: $0.pushToken) }
    }

    /// The pushes sent for a user's messages, oldest first.
    package func pushes(userId: String) -> [HTTPWire.AppPush] {
        let userId = Identifier.normalized(userId)
        guard hasUser(userId) else { return [] }
        return backend.pushes(userId: userId).map { HTTPWire.AppPush(deviceId: $0.deviceId, pushToken: $0.pushToken, preview: $0.preview) }
    }

    /// The app's settings, in ``AppSettings/keys`` order.
    package func settings() -> [HTTPWire.AppSetting] {
        backend.settingsDescription(apiKey: apiKey).map { HTTPWire.AppSetting(key: $0.0, value: $0.1) }
    }

    /// Applies every change, or none: throws `badRequest` naming a bad key or value.
    package func updateSettings(_ changes: [HTTPWire.AppSetting]) throws(WireError) {
        try backend.updateSettings(apiKey: apiKey, changes.map { ($0.key, $0.value) })
    }

    /// Expires the user's access tokens now (`token expire`); `unknownUser`
    /// for a user the app does not have.
    package func expireAccessTokens(userId: String) throws(WireError) {
        let userId = Identifier.normalized(userId)
        try requireUser(userId)
        backend.expireAccessTokens(userId: userId)
    }

    /// Revokes every token of the user and closes their sessions and event
    /// streams (`token revoke`); `unknownUser` for a user the app does not have.
    package func revokeTokens(userId: String) throws(WireError) {
        let userId = Identifier.normalized(userId)
        try requireUser(userId)
        backend.revokeTokens(userId: userId)
    }

    /// An app-issued access token for a user (created if unknown).
    package func issueAccessToken(userId: String) throws(WireError) -> HTTPWire.IssuedCredentialBody {
        let userId = Identifier.normalized(userId)
        return Self.body(try backend.issueAccessToken(apiKey: apiKey, userId: userId))
    }

    /// An app-issued session token for a user (created if unknown), valid for
    /// `ttl` (positive) or the app's `sessionTokenTTL`.
    package func issueSessionToken(userId: String, ttl: Duration?) throws(WireError) -> HTTPWire.IssuedCredentialBody {
        let userId = Identifier.normalized(userId)
        if let ttl, ttl <= .zero { throw WireError(.badRequest, "The session token's lifetime must be positive") }
        return Self.body(try backend.issueSessionToken(apiKey: apiKey, userId: userId, ttl: ttl))
    }

    /// The agent sends a file in one of the app's conversations (S2, D6).
    package func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data,
        agentName: String = "agent"
    ) throws(WireError) -> WireMessage {
        let conversationId = Identifier.normalized(conversationId)
        try requireConversation(conversationId)
        return try backend.agentSendAttachment(
            conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data, agentName: agentName)
    }

    /// The agent says `text` in one of the app's conversations (S2).
    package func agentSay(conversationId: String, text: String, agentName: String = "agent") throws(WireError) -> WireMessage {
        let conversationId = Identifier.normalized(conversationId)
        try requireConversation(conversationId)
        return try backend.agentSay(conversationId: conversationId, text: text, agentName: agentName)
    }

    /// The agent starts or stops typing in one of the app's conversations.
    package func agentTyping(conversationId: String, isTyping: Bool, agentName: String = "agent") throws(WireError) {
        let conversationId = Identifier.normalized(conversationId)
        try requireConversation(conversationId)
        try backend.agentTyping(conversationId: conversationId, isTyping: isTyping, agentName: agentName)
    }

    /// The agent reads one of the app's conversations up to its newest message.
    package func agentRead(conversationId: String, agentName: String = "agent") throws(WireError) {
        let conversationId = Identifier.normalized(conversationId)
        try requireConversation(conversationId)
        try backend.agentRead(conversationId: conversationId, agentName: agentName)
    }

    /// `unknownConversation` unless the conversation is one of the app's.
    package func requireConversation(_ conversationId: String) throws(WireError) {
        let conversationId = Identifier.normalized(conversationId)
        guard backend.apiKey(ofConversation: conversationId)?.isSameIdentifier(as: apiKey) == true else {
            throw WireError(.unknownConversation)
        }
    }

    private func requireUser(_ userId: String) throws(WireError) {
        let userId = Identifier.normalized(userId)
        guard hasUser(userId) else { throw WireError(.unknownUser, "The app has no user \(String(userId.prefix(100)).debugDescription)") }
    }

    private static func body(_ credential: IssuedCredential) -> HTTPWire.IssuedCredentialBody {
        HTTPWire.IssuedCredentialBody(token: credential.token, expiresAt: credential.expiresAt)
    }
}

extension Backend {
    /// The app with this API key's view of the backend (see ``AppScope``).
    package func scope(apiKey: String) -> AppScope {
        AppScope(backend: self, apiKey: apiKey)
    }
}
