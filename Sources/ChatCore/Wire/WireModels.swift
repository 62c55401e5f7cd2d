/// Values exchanged between the SDK and the backend. Plain `Codable` structs:
/// the embedded world passes them in memory, the server mode as JSON.

/// An access token and the refresh token that renews it.
package struct TokenPair: Codable, Sendable, Hashable {
    package var accessToken: String
    package var accessExpiresAt: Instant
    package var refreshToken: String
    package var refreshExpiresAt: Instant

    package init(accessToken: String, accessExpiresAt: Instant, refreshToken: String, refreshExpiresAt: Instant) {
        self.accessToken = accessToken
        self.accessExpiresAt = accessExpiresAt
        self.refreshToken = refreshToken
        self.refreshExpiresAt = refreshExpiresAt
    }
}

package struct WireConversation: Codable, Sendable, Hashable {
    package var id: String
    package var title: String?
    package var createdAt: Instant
    package var updatedAt: Instant
    /// Sequence number of the newest message (0 when empty).
    package var lastSeq: Int64
    package var lastMessagePreview: String?
    package var providerTypingUntil: Instant?
    /// The seq of the newest message a provider has read; nil when none has.
    package var providerReadSeq: Int64?

    package init(
        id: String, title: String?, createdAt: Instant, updatedAt: Instant, lastSeq: Int64, lastMessagePreview: String?,
        providerTypingUntil: Instant? = nil, providerReadSeq: Int64? = nil
    ) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastSeq = lastSeq
        self.lastMessagePreview = lastMessagePreview
        self.providerTypingUntil = providerTypingUntil
        self.providerReadSeq = providerReadSeq
    }
}

package enum WireAuthor: Codable, Sendable, Hashable {
    case user(id: String)
    case provider(name: String)
    case system
}

package enum WireContent: Codable, Sendable, Hashable {
    case text(String)
    /// A file. `id` names bytes uploaded first (`uploadAttachment`); nil
    /// for an attachment described without its bytes.
    case attachment(kind: AttachmentKind, mimeType: String, size: Int64, fileName: String?, id: String? = nil)

    package enum AttachmentKind: String, Codable, Sendable, Hashable, CaseIterable {
        case image, video, document, audio
    }
}

package struct WireMessage: Codable, Sendable, Hashable {
    /// The id chosen by the sending client; the server de-duplicates on it.
    package var id: String
    package var conversationId: String
    /// Position in the conversation, assigned by the server, starting at 1.
    package var seq: Int64
    package var author: WireAuthor
    package var content: WireContent
    package var replyTo: String?
    package var createdAt: Instant

    package init(
        id: String, conversationId: String, seq: Int64, author: WireAuthor, content: WireContent, replyTo: String?, createdAt: Instant
    ) {
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
package struct WirePage<Element: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    package var elements: [Element]
    /// Opaque cursor for the next page; nil when nothing is left.
    package var nextCursor: String?

    package init(elements: [Element], nextCursor: String?) {
        self.elements = elements
        self.nextCursor = nextCursor
    }
}

/// A user as the SDK sees it (A5, A7, A12–A14).
package struct WireUser: Codable, Sendable, Hashable {
    /// The user's id: the JWT's `external_id`, the id given to `connect…`,
    /// or one the server made up for an anonymous user.
    package var id: String
    /// Whether the server created this user without an identity (A7).
    package var isAnonymous: Bool
    /// How the session that answered authenticated.
    package var authenticationType: AuthenticationType
    /// The JWT's `name` claim, if one was given.
    package var name: String?
    /// The JWT's `email` claim, if one was given.
    package var email: String?
    package var nickname: String?
    package var profileURL: String?
    /// Free-form attributes set by the app (A12, A13).
    package var attributes: [String: String]

    package init(
        id: String, isAnonymous: Bool, authenticationType: AuthenticationType, name: String? = nil, email: String? = nil,
        nickname: String? = nil, profileURL: String? = nil, attributes: [String: String] = [:]
    ) {
        self.id = id
        self.isAnonymous = isAnonymous
        self.authenticationType = authenticationType
        self.name = name
        self.email = email
        self.nickname = nickname
        self.profileURL = profileURL
        self.attributes = attributes
    }

    /// How a session was opened; encoded as its raw string.
    package enum AuthenticationType: String, Codable, Sendable, Hashable, CaseIterable {
        /// `loginJWT` (A5).
        case jwt
        /// `loginAnonymous` (A7).
        case anonymous
        /// `connectUserId` (A10).
        case userId
        /// `connectAccessToken` (A10).
        case access
        /// `connectSessionToken` (A10).
        case session
        /// Tokens minted by the app's backend (`Backend.issueTokens`, A1).
        case tokens
    }
}

/// Bytes the server stored (`uploadAttachment`): what a message's
/// attachment names by `id`.
package struct WireAttachment: Codable, Sendable, Hashable {
    package var id: String
    package var mimeType: String
    package var size: Int64
    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    package var sha256: String

    package init(id: String, mimeType: String, size: Int64, sha256: String) {
        self.id = id
        self.mimeType = mimeType
        self.size = size
        self.sha256 = sha256
    }
}

/// The app's limits on attachments (`appLimits`, from its settings): what
/// an upload is checked against, by the backend and, before any byte
/// leaves, by the SDK. One check, so that both give the same reason.
package struct WireAppLimits: Codable, Sendable, Hashable {
    /// The largest attachment, in bytes.
    package var maxAttachmentBytes: Int64
    /// The MIME types accepted, compared case-insensitively.
    package var allowedMimeTypes: [String]

    package init(maxAttachmentBytes: Int64, allowedMimeTypes: [String]) {
        self.maxAttachmentBytes = maxAttachmentBytes
        self.allowedMimeTypes = allowedMimeTypes
    }

    /// Refuses an attachment of `size` bytes of type `mimeType` the app does
    /// not accept: `attachmentTooLarge`, then `unsupportedMediaType`.
    package func check(mimeType: String, size: Int64) throws(WireError) {
        guard size <= maxAttachmentBytes else {
            throw WireError(.attachmentTooLarge, "The attachment is \(size) bytes; the server accepts at most \(maxAttachmentBytes)")
        }
        guard allowedMimeTypes.contains(where: { $0.lowercased() == mimeType.lowercased() }) else {
            throw WireError(
                .unsupportedMediaType,
                "The server does not accept \(String(mimeType.prefix(100)).debugDescription); it accepts \(allowedMimeTypes.joined(separator: ", "))"
            )
        }
    }
}

/// Limits the SDK checks before upload and the backend enforces.
package enum WireLimits {
    /// Largest attachment any app accepts, whatever its settings: what the
    /// SDK checks before a byte leaves (an app's `maxAttachmentBytes` may be lower).
    package static let maxAttachmentBytes: Int64 = 100 * 1024 * 1024
    /// Largest profile image accepted (A14): 5 MiB.
    package static let maxProfileImageBytes: Int64 = 5 * 1024 * 1024
    /// MIME types accepted for a profile image (A14), compared case-insensitively.
    package static let profileImageMimeTypes = ["image/jpeg", "image/png"]
    /// Longest id a client may choose (a conversation's, a message's), in
    /// Unicode scalars.
    package static let maxIdentifierLength = 256

    /// What is wrong with a client-chosen id ("is empty", "contains control
    /// characters"…), or nil when the server accepts it.
    package static func identifierProblem(_ id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if id.unicodeScalars.count > maxIdentifierLength { return "is longer than \(maxIdentifierLength) characters" }
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "contains control characters" }
        return nil
    }
}
