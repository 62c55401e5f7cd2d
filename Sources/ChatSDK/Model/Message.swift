/// What a message carries: text or an attachment (D6).
public typealias MessageContent = WireContent
/// Who wrote a message.
public typealias MessageAuthor = WireAuthor

/// Where a message stands on its way to the server (D6).
public enum SendState: Sendable, Hashable, CustomStringConvertible {
    case toBeSent
    case sending
    case sent
    case failed(ChatError)

    /// `toBeSent`, `sending`, `sent` or `failed`.
    public var name: String {
        switch self {
        case .toBeSent: "toBeSent"
        case .sending: "sending"
        case .sent: "sent"
        case .failed: "failed"
        }
    }

    public var description: String {
        if case .failed(let error) = self { return "failed(\(error.code))" }
        return name
    }
}

/// A message of a conversation (an "item" of `watchItems`).
public struct Message: Sendable, Hashable, Identifiable {
    /// The client id: chosen on the device, kept across retries.
    public let id: String
    public let conversationId: String
    /// Position in the conversation once the server has it.
    public var seq: Int64?
    public var author: MessageAuthor
    public var content: MessageContent
    public var replyTo: String?
    public var createdAt: Instant
    public var state: SendState
    /// Whether a provider has read the conversation up to this message.
    public var isReadByProvider: Bool = false

    /// The text of a text message; a short description of an attachment.
    public var preview: String {
        switch content {
        case .text(let text): text
        case .attachment(let kind, let mime, let size, _): "[\(kind.rawValue) \(mime) \(size) bytes]"
        }
    }
}
