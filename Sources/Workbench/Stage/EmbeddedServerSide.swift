import ChatBackend
import ChatCore
import ChatSimulation
import Foundation

/// The server side of the embedded world: its in-process backend, seen as
/// the app with `apiKey` sees it (``AppScope``, which the server's
/// `/v1/app/…` routes answer from too).
final class EmbeddedServerSide: ServerSide {
    let label = "embedded"
    let app: AppScope

    init(backend: Backend, apiKey: String = World.apiKey) {
        app = backend.scope(apiKey: apiKey)
    }

    func users() throws -> [HTTPWire.AppUser] { app.users() }
    func attachments() throws -> [HTTPWire.AppAttachment] { try app.attachments() }
    func conversations(userId: String) throws -> [WireConversation] { app.conversations(userId: userId) }
    func messages(conversationId: String) throws -> [WireMessage] { try app.messages(conversationId: conversationId) }
    func sessions(userId: String) throws -> [HTTPWire.AppSession] { app.sessions(userId: userId) }
    func pushSubscriptions(userId: String) throws -> [HTTPWire.AppDevice] { app.pushSubscriptions(userId: userId) }
    func pushes(userId: String) throws -> [HTTPWire.AppPush] { app.pushes(userId: userId) }
    func settings() throws -> [HTTPWire.AppSetting] { app.settings() }
    func updateSettings(_ changes: [HTTPWire.AppSetting]) throws { try app.updateSettings(changes) }

    func expireAccessTokens(userId: String) throws { try app.expireAccessTokens(userId: userId) }
    func revokeTokens(userId: String) throws { try app.revokeTokens(userId: userId) }
    func issueAccessToken(userId: String) throws -> HTTPWire.IssuedCredentialBody { try app.issueAccessToken(userId: userId) }
    func issueSessionToken(userId: String, ttl: Duration?) throws -> HTTPWire.IssuedCredentialBody {
        try app.issueSessionToken(userId: userId, ttl: ttl)
    }

    func agentSay(conversationId: String, text: String) throws -> WireMessage {
        try app.agentSay(conversationId: conversationId, text: text)
    }
    func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) throws -> WireMessage {
        try app.agentSendAttachment(conversationId: conversationId, kind: kind, mimeType: mimeType, fileName: fileName, data: data)
    }
    func agentTyping(conversationId: String, isTyping: Bool) throws {
        try app.agentTyping(conversationId: conversationId, isTyping: isTyping)
    }
    func agentRead(conversationId: String) throws { try app.agentRead(conversationId: conversationId) }
}
