import ChatCore
import Foundation

/// The server as the workbench sees it from the other side: what the app's
/// backend can inspect and change, and what the agent does (SPEC S1, S2).
///
/// The embedded world answers from its in-process backend
/// (``EmbeddedServerSide``); against `chatbench serve` the same questions go
/// over HTTP with the app's secret (``HTTPServerSide``). Every verb of the
/// `server`, `agent` and `token` groups goes through this, so a transcript
/// reads the same in both worlds.
protocol ServerSide: AnyObject, Sendable {
    /// "embedded" or the server's URL, for `server` summaries.
    var label: String { get }

    func users() throws -> [HTTPWire.AppUser]
    func conversations(userId: String) throws -> [WireConversation]
    /// Throws when the server has no such conversation.
    func messages(conversationId: String) throws -> [WireMessage]
    func sessions(userId: String) throws -> [HTTPWire.AppSession]
    /// The devices subscribed to the user's pushes.
    func pushSubscriptions(userId: String) throws -> [HTTPWire.AppDevice]
    func pushes(userId: String) throws -> [HTTPWire.AppPush]
    func settings() throws -> [HTTPWire.AppSetting]
    /// Throws a `WireError` (badRequest) naming a bad key or value.
    func updateSettings(_ changes: [HTTPWire.AppSetting]) throws

    func expireAccessTokens(userId: String) throws
    func revokeTokens(userId: String) throws
    func issueAccessToken(userId: String) throws -> HTTPWire.IssuedCredentialBody
    func issueSessionToken(userId: String, ttl: Duration?) throws -> HTTPWire.IssuedCredentialBody

    func agentSay(conversationId: String, text: String) throws -> WireMessage
    func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) throws -> WireMessage
    func agentTyping(conversationId: String, isTyping: Bool) throws
    func agentRead(conversationId: String) throws
    /// The attachments the app holds, oldest first; the embedded backend
    /// only (the server has no route that lists them).
    func attachments() throws -> [HTTPWire.AppAttachment]
}
