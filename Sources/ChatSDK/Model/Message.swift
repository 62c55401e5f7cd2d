import Foundation

/// What a message carries: text or an attachment (D6).
public enum MessageContent: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A file: its kind, MIME type, size in bytes and, if known, its name.
    case attachment(kind: AttachmentKind, mimeType: String, size: Int64, fileName: String?)

    /// What an attachment is.
    public enum AttachmentKind: String, Sendable, Hashable, CaseIterable {
        /// A picture.
        case image
        /// A video.
        case video
        /// Any other file (the kind of an unknown one).
        case document
        /// A sound recording.
        case audio
    }
}

/// Who wrote a message.
public enum MessageAuthor: Sendable, Hashable {
    /// A user of the app (the one signed in, on this device or another).
    case user(id: String)
    /// Someone answering on the app's side (an agent, a bot), by name.
    case provider(name: String)
    /// The chat service itself.
    case system
}

/// Where a message stands on its way to the server (D6).
public enum SendState: Sendable, Hashable, CustomStringConvertible {
    case toBeSent
    case sending
    case sent
    case failed(ChatError)

    /// `toBeSent`, `sending`, `sent` or `failed`.
    public var name: String { kind.rawValue }

    /// The state without its error: what a message's row keeps in the disk
    /// cache, what the outbox decides on, what the flight recorder keeps
    /// (its name, as JSON: `"toBeSent"`) and what the workbench names. One
    /// enum from the row to the edge, never a string compared by hand.
    package enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case toBeSent, sending, sent, failed
    }

    /// The state of `kind`, failed with `error` (read only for `.failed`).
    package init(_ kind: Kind, error: @autoclosure () -> ChatError) {
        switch kind {
        case .toBeSent: self = .toBeSent
        case .sending: self = .sending
        case .sent: self = .sent
        case .failed: self = .failed(error())
        }
    }

    /// Its kind (``Kind``).
    package var kind: Kind {
        switch self {
        case .toBeSent: .toBeSent
        case .sending: .sending
        case .sent: .sent
        case .failed: .failed
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
    /// The conversation it belongs to.
    public let conversationId: String
    /// Position in the conversation once the server has it.
    public var seq: Int64?
    /// Who wrote it.
    public var author: MessageAuthor
    /// What it says.
    public var content: MessageContent
    /// The id of the message it answers, if any.
    public var replyTo: String?
    /// When the message was written (on this device while it is not sent).
    public var createdAt: Date
    /// Where it stands on its way to the server.
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
