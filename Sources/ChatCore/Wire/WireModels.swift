/// Values exchanged between the SDK and the backend. Plain `Codable` structs:
/// the embedded world passes them in memory, the server mode as JSON.

/// An access token and the refresh token that renews it.
public struct TokenPair: Codable, Sendable, Hashable {
    public var accessToken: String
    public var accessExpiresAt: Instant
    public var refreshToken: String
    public var refreshExpiresAt: Instant

    public init(accessToken: String, accessExpiresAt: Instant, refreshToken: String, refreshExpiresAt: Instant) {
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
    }
}

public struct WireConversation: Codable, Sendable, Hashable {
    public var id: String
    public var title: String?
    public var createdAt: Instant
    public var updatedAt: Instant
    /// Sequence number of the newest message (0 when empty).
    public var lastSeq: Int64
    public var lastMessagePreview: String?
    public var providerTypingUntil: Instant?

    public init(id: String, title: String?, createdAt: Instant, updatedAt: Instant, lastSeq: Int64, lastMessagePreview: String?, providerTypingUntil: Instant? = nil) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastSeq = lastSeq
        self.lastMessagePreview = lastMessagePreview
        self.providerTypingUntil = providerTypingUntil
    }
}

public enum WireAuthor: Codable, Sendable, Hashable {
    case user(id: String)
    case provider(name: String)
    case system
}

public enum WireContent: Codable, Sendable, Hashable {
    case text(String)
    case attachment(kind: AttachmentKind, mimeType: String, size: Int64, fileName: String?)

    public enum AttachmentKind: String, Codable, Sendable, Hashable, CaseIterable {
        case image, video, document, audio
    }
}

public struct WireMessage: Codable, Sendable, Hashable {
    /// The id chosen by the sending client; the server de-duplicates on it.
    public var id: String
    public var conversationId: String
    /// Position in the conversation, assigned by the server, starting at 1.
    public var seq: Int64
    public var author: WireAuthor
    public var content: WireContent
    public var replyTo: String?
    public var createdAt: Instant

    public init(id: String, conversationId: String, seq: Int64, author: WireAuthor, content: WireContent, replyTo: String?, createdAt: Instant) {
        self.id = id
        self.conversationId = conversationId
        self.seq = seq
        self.author = author
        self.content = content
        self.replyTo = replyTo
        self.createdAt = createdAt
    }
}

/// A page of results, newest first, with the cursor of the next (older) page.
public struct WirePage<Element: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var elements: [Element]
    /// Opaque cursor for the next page; nil when nothing is left.
    public var nextCursor: String?

    public init(elements: [Element], nextCursor: String?) {
        self.elements = elements
        self.nextCursor = nextCursor
    }
}
