package import ChatCore
import Foundation

// The one place where the SDK's public model meets the wire format
// (ChatCore): an app sees `MessageContent`, `MessageAuthor`, `ChatTokens` and
// `Date`; the transport, the cache and the backend see `WireContent`,
// `WireAuthor`, `TokenPair` and `Instant`. Each conversion is exact both ways
// (times to the millisecond), so that nothing an app or a transcript sees
// moves.

extension MessageContent {
    /// The content a wire message carries.
    package init(_ wire: WireContent) {
        switch wire {
        case .text(let text): self = .text(text)
        // The id of its bytes is the cache's (LocalStore's attachment table).
        case .attachment(let kind, let mimeType, let size, let fileName, _):
            self = .attachment(kind: AttachmentKind(kind), mimeType: mimeType, size: size, fileName: fileName)
        }
    }
}

extension MessageContent.AttachmentKind {
    /// Same cases, same raw values.
    package init(_ wire: WireContent.AttachmentKind) {
        switch wire {
        case .image: self = .image
        case .video: self = .video
        case .document: self = .document
        case .audio: self = .audio
        }
    }
}

extension WireContent {
    /// `content` as it goes on the wire; `attachmentId` names its uploaded bytes.
    package init(_ content: MessageContent, attachmentId: String? = nil) {
        switch content {
        case .text(let text): self = .text(text)
        case .attachment(let kind, let mimeType, let size, let fileName):
            self = .attachment(kind: AttachmentKind(kind), mimeType: mimeType, size: size, fileName: fileName, id: attachmentId)
        }
    }
}

extension WireContent.AttachmentKind {
    /// Same cases, same raw values.
    package init(_ kind: MessageContent.AttachmentKind) {
        switch kind {
        case .image: self = .image
        case .video: self = .video
        case .document: self = .document
        case .audio: self = .audio
        }
    }
}

extension MessageAuthor {
    /// The author of a wire message.
    package init(_ wire: WireAuthor) {
        switch wire {
        case .user(let id): self = .user(id: id)
        case .provider(let name): self = .provider(name: name)
        case .system: self = .system
        }
    }
}

extension ChatTokens {
    /// The tokens of a wire token pair.
    package init(_ pair: TokenPair) {
        self.init(
            accessToken: pair.accessToken, accessExpiresAt: Date(pair.accessExpiresAt), refreshToken: pair.refreshToken,
            refreshExpiresAt: Date(pair.refreshExpiresAt))
    }
}

extension TokenPair {
    /// `tokens` as the session keeps them, times to the nearest millisecond.
    package init(_ tokens: ChatTokens) {
        self.init(
            accessToken: tokens.accessToken, accessExpiresAt: Instant(tokens.accessExpiresAt), refreshToken: tokens.refreshToken,
            refreshExpiresAt: Instant(tokens.refreshExpiresAt))
    }
}

extension Date {
    /// The date of `instant`; `Instant(_:)` gives the same instant back.
    package init(_ instant: Instant) {
        self.init(timeIntervalSince1970: Double(instant.milliseconds) / 1000)
    }

    /// The date `milliseconds` after the Unix epoch (a cache column).
    package init(milliseconds: Int64) {
        self.init(Instant(milliseconds: milliseconds))
    }
}

extension Instant {
    /// `date` to the nearest millisecond (exact for a date made from an
    /// instant), saturating far outside any calendar a chat uses.
    package init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        self.init(milliseconds: milliseconds.isNaN ? 0 : Int64(exactly: milliseconds) ?? (milliseconds < 0 ? .min : .max))
    }
}
