import Foundation

/// The one rule for identifiers (S4, issue 26): user, conversation, message and
/// device ids and API keys are normalised to Unicode Normalization Form C
/// where they come in (the backend's requests and app routes, the SDK's
/// public calls), and compared byte for byte everywhere after that.
///
/// Swift's `String` compares canonically equivalent spellings as equal
/// (`"caf\u{E9}" == "cafe\u{301}"`); SQLite compares bytes. With every id in
/// NFC the two agree: two NFC strings are canonically equivalent only when
/// their bytes are the same. So `cafe\u{301}` and `caf\u{E9}` are one
/// conversation everywhere, whichever spelling a client sends, and the
/// answers spell it in NFC.
package enum Identifier {
    /// `id` in NFC (an ASCII id, the common case, as it is).
    package static func normalized(_ id: String) -> String {
        if isASCII(id) { return id }
        return id.precomposedStringWithCanonicalMapping
    }

    /// `id` normalised, or nil for nil.
    package static func normalized(_ id: String?) -> String? {
        id.map { normalized($0) }
    }

    private static func isASCII(_ id: String) -> Bool {
        id.utf8.allSatisfy { $0 < 0x80 }
    }
}

/// A string as a dictionary key that compares and hashes its UTF-8 bytes,
/// not its characters: an in-memory index beside SQLite must find what
/// SQLite finds and nothing else (issue 26: a cache keyed by Swift strings
/// gave one user's message for another's canonically equivalent id).
package struct ExactKey: Hashable, Sendable, CustomStringConvertible {
    package let string: String

    package init(_ string: String) { self.string = string }

    package static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.string.isSameIdentifier(as: rhs.string)
    }

    package func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package var description: String { string }
}

extension String {
    /// Whether the two strings have the same UTF-8 bytes (not merely the same
    /// characters, as `==` says): see ``Identifier``.
    ///
    /// Compares the contiguous bytes of native strings at once: the generic
    /// `utf8.elementsEqual` walked them one index at a time, about 10
    /// instructions a byte, and a send compared a dozen keys of a few
    /// hundred bytes (issue 31). Strings without contiguous UTF-8 (bridged
    /// ones) are walked as before.
    package func isSameIdentifier(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let same = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

extension WireRequest {
    /// The request with each identifier in it normalised (``Identifier``).
    package func normalizingIdentifiers() -> WireRequest {
        let n = Identifier.normalized as (String) -> String
        switch self {
        case .refresh, .listConversations, .loginJWT, .loginAnonymous, .logout, .registerDevice, .unregisterDevice,
            .getCurrentUser, .updateUser, .uploadProfileImage, .uploadAttachment, .appLimits:
            return self
        case .attachmentData(let id):
            return .attachmentData(id: n(id))
        case .getConversation(let id):
            return .getConversation(id: n(id))
        case .listMessages(let conversationId, let cursor, let limit):
            return .listMessages(conversationId: n(conversationId), cursor: cursor, limit: limit)
        case .messagesSince(let conversationId, let afterSeq, let limit):
            return .messagesSince(conversationId: n(conversationId), afterSeq: afterSeq, limit: limit)
        case .sendMessage(let conversationId, let create, var message):
            message.id = n(message.id)
            message.replyTo = Identifier.normalized(message.replyTo)
            return .sendMessage(conversationId: n(conversationId), createConversation: create, message: message)
        case .setTyping(let conversationId, let isTyping):
            return .setTyping(conversationId: n(conversationId), isTyping: isTyping)
        case .connectUserId(let userId, let signature):
            return .connectUserId(userId: n(userId), signature: signature)
        case .connectAccessToken(let userId, let accessToken, let signature):
            return .connectAccessToken(userId: n(userId), accessToken: accessToken, signature: signature)
        case .connectSessionToken(let userId, let sessionToken, let signature):
            return .connectSessionToken(userId: n(userId), sessionToken: sessionToken, signature: signature)
        }
    }
}

extension WireEnvelope {
    /// The envelope with its API key, device id and request's identifiers
    /// normalised (``Identifier``).
    package func normalizingIdentifiers() -> WireEnvelope {
        var copy = self
        copy.apiKey = Identifier.normalized(apiKey)
        copy.deviceId = Identifier.normalized(deviceId)
        copy.request = request.normalizingIdentifiers()
        return copy
    }
}
