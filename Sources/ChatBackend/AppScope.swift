import ChatCore
import Foundation

/// One app's view of the backend, as its own backend sees it with the app's
/// secret (SPEC S1, S2): its users, their conversations, sessions, devices
/// and pushes, its settings, and the credentials it issues.
///
/// Both the server's `/v1/app/…` routes and the workbench's embedded world
/// answer from it, so that they answer the same. Ids are per app
/// (``AppKey``): another app's users and conversations do not exist here,
/// even under an id this app also has: their lists are empty, and a
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
                conversationCount: backend.conversations(userId: user.key).count,
                sessionCount: backend.sessionCount(userId: user.key))
        }
    }

    /// The attachments the app holds, oldest first (D6).
    package func attachments() throws(WireError) -> [HTTPWire.AppAttachment] {
        try backend.attachments(apiKey: apiKey)
    }

    /// Whether the app has this user.
    package func hasUser(_ userId: String) -> Bool {
        userKey(userId) != nil
    }

    /// A user's conversations, most recently updated first.
    package func conversations(userId: String) -> [WireConversation] {
        userKey(userId).map { backend.conversations(userId: $0) } ?? []
    }

    /// The messages of one of the app's conversations, oldest first; throws
    /// `unknownConversation` for a conversation the app does not have.
    package func messages(conversationId: String) throws(WireError) -> [WireMessage] {
        try backend.messages(conversationId: try requireConversation(conversationId))
    }

    /// A user's open sessions, oldest first.
    package func sessions(userId: String) -> [HTTPWire.AppSession] {
        guard let key = userKey(userId) else { return [] }
        return backend.sessions(userId: key).map {
            HTTPWire.AppSession(authenticationType: $0.authenticationType, deviceId: $0.deviceId)
        }
    }

    /// The devices subscribed to a user's pushes, with their push tokens.
    package func pushSubscriptions(userId: String) -> [HTTPWire.AppDevice] {
        guard let key = userKey(userId) else { return [] }
        return backend.pushSubscriptions(userId: key).map { HTTPWire.AppDevice(deviceId: $0.deviceId, pushToken: $0.pushToken) }
    }

    /// The pushes sent for a user's messages, oldest first.
    package func pushes(userId: String) -> [HTTPWire.AppPush] {
        guard let key = userKey(userId) else { return [] }
        return backend.pushes(userId: key).map { HTTPWire.AppPush(deviceId: $0.deviceId, pushToken: $0.pushToken, preview: $0.preview) }
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
        backend.expireAccessTokens(userId: try requireUser(userId))
    }

    /// Revokes every token of the user and closes their sessions and event
    /// streams (`token revoke`); `unknownUser` for a user the app does not have.
    package func revokeTokens(userId: String) throws(WireError) {
        backend.revokeTokens(userId: try requireUser(userId))
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
        try backend.agentSendAttachment(
            conversationId: try requireConversation(conversationId), kind: kind, mimeType: mimeType, fileName: fileName, data: data,
            agentName: agentName)
    }

    /// The agent says `text` in one of the app's conversations (S2).
    package func agentSay(conversationId: String, text: String, agentName: String = "agent") throws(WireError) -> WireMessage {
        try backend.agentSay(conversationId: try requireConversation(conversationId), text: text, agentName: agentName)
    }

    /// The agent starts or stops typing in one of the app's conversations.
    package func agentTyping(conversationId: String, isTyping: Bool, agentName: String = "agent") throws(WireError) {
        try backend.agentTyping(conversationId: try requireConversation(conversationId), isTyping: isTyping, agentName: agentName)
    }

    /// The agent reads one of the app's conversations up to its newest message.
    package func agentRead(conversationId: String, agentName: String = "agent") throws(WireError) {
        try backend.agentRead(conversationId: try requireConversation(conversationId), agentName: agentName)
    }

    /// The key (``AppKey``) of one of the app's conversations;
    /// `unknownConversation` when the app has none with this id.
    @discardableResult
    package func requireConversation(_ conversationId: String) throws(WireError) -> String {
        guard let key = backend.conversationKey(apiKey: apiKey, id: Identifier.normalized(conversationId)) else {
            throw WireError(.unknownConversation)
        }
        return key
    }

    /// The key (``AppKey``) of the app's user `userId`, or nil.
    private func userKey(_ userId: String) -> String? {
        backend.userKey(apiKey: apiKey, id: Identifier.normalized(userId))
    }

    /// The key of one of the app's users; `unknownUser` when the app has none with this id.
    private func requireUser(_ userId: String) throws(WireError) -> String {
        let userId = Identifier.normalized(userId)
        guard let key = userKey(userId) else {
            throw WireError(.unknownUser, "The app has no user \(String(userId.prefix(100)).debugDescription)")
        }
        return key
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
