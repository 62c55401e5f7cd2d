import ChatBackend
import ChatCore
import ChatSDK
import Foundation

/// The other side's calls, as values: made once here for both the side
/// that records them and the side that answers them from the tape, which
/// compares them by value (issue 30).
extension TrafficEntry.Call {
    typealias Argument = TrafficEntry.Argument

    static func users() -> Self { Self("users") }
    static func attachments() -> Self { Self("attachments") }
    static func settings() -> Self { Self("settings") }
    static func conversations(userId: String) -> Self { Self("conversations", [.word(userId)]) }
    static func messages(conversationId: String) -> Self { Self("messages", [.word(conversationId)]) }
    static func sessions(userId: String) -> Self { Self("sessions", [.word(userId)]) }
    static func pushSubscriptions(userId: String) -> Self { Self("pushSubscriptions", [.word(userId)]) }
    static func pushes(userId: String) -> Self { Self("pushes", [.word(userId)]) }
    static func updateSettings(_ changes: [HTTPWire.AppSetting]) -> Self {
        Self("updateSettings", changes.map { .setting(key: $0.key, value: $0.value) })
    }
    static func expireAccessTokens(userId: String) -> Self { Self("expireAccessTokens", [.word(userId)]) }
    static func revokeTokens(userId: String) -> Self { Self("revokeTokens", [.word(userId)]) }
    /// The token provider's tokens, issued by the app's backend.
    static func issueTokens(userId: String) -> Self { Self("issueTokens", [.word(userId)]) }
    static func issueAccessToken(userId: String) -> Self { Self("issueAccessToken", [.word(userId)]) }
    /// The time to live in milliseconds, or `default`.
    static func issueSessionToken(userId: String, ttl: Duration?) -> Self {
        Self("issueSessionToken", [.word(userId), ttl.map { .milliseconds(Int64($0.wholeMilliseconds)) } ?? .word("default")])
    }
    static func agentSay(conversationId: String, text: String) -> Self { Self("agentSay", [.word(conversationId), .text(text)]) }
    /// An agent's file: its bytes by their size and digest.
    static func agentSendAttachment(
        conversationId: String, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, data: Data
    ) -> Self {
        Self(
            "agentSendAttachment",
            [
                .word(conversationId), .word(kind.rawValue), .word(mimeType), .text(fileName ?? ""),
                .bytes(count: data.count, sha256: String(Backend.sha256(data).prefix(12))),
            ])
    }
    static func agentTyping(conversationId: String, isTyping: Bool) -> Self {
        Self("agentTyping", [.word(conversationId), .flag(isTyping)])
    }
    static func agentRead(conversationId: String) -> Self { Self("agentRead", [.word(conversationId)]) }
}
