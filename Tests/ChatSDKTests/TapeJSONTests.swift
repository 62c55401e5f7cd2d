import ChatCore
import Foundation
import Testing

@testable import ChatSDK

/// The tape's bodies written by hand (``TapeJSON``, issue 31) are the bytes
/// `JSONEncoder` writes with the tape's options, for every case of every
/// type the SDK's traffic carries, and read back as the value.
@Suite struct TapeJSONTests {
    /// Text a naive writer gets wrong: quotes, backslashes, slashes, every
    /// control character, DEL, non-ASCII, an emoji.
    static let awkward: String = {
        var text = "say \"hi\" \\ a/b </script> \u{7F} é \u{2028} 😀 "
        for byte in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        return text
    }()

    static let at = Instant(milliseconds: 1_767_225_600_123)
    static let content: [WireContent] = [
        .text("m 1"), .text(awkward), .text(""),
        .attachment(kind: .image, mimeType: "image/png", size: 12, fileName: "a b.png", id: "att-1"),
        .attachment(kind: .document, mimeType: "application/pdf", size: 0, fileName: nil, id: nil),
    ]
    static let messages: [WireMessage] =
        content.map {
            WireMessage(id: "m-1", conversationId: "c1", seq: 7, author: .user(id: "alice"), content: $0, replyTo: nil, createdAt: at)
        } + [
            WireMessage(
                id: awkward, conversationId: "c/2", seq: Int64.max, author: .provider(name: "bot"), content: .text("x"), replyTo: "m-0",
                createdAt: Instant(milliseconds: -5)),
            WireMessage(id: "m-3", conversationId: "c1", seq: 0, author: .system, content: .text("x"), replyTo: nil, createdAt: at),
        ]
    static let conversations = [
        WireConversation(id: "c1", title: nil, createdAt: at, updatedAt: at, lastSeq: 0, lastMessagePreview: nil),
        WireConversation(
            id: "c2", title: awkward, createdAt: at, updatedAt: Instant(milliseconds: 0), lastSeq: 12, lastMessagePreview: "hi",
            providerTypingUntil: at, providerReadSeq: 11),
    ]
    static let tokens = TokenPair(accessToken: "at-abc", accessExpiresAt: at, refreshToken: "rt-def", refreshExpiresAt: at)
    static let users = [
        WireUser(id: "alice", isAnonymous: false, authenticationType: .jwt),
        WireUser(
            id: "bob", isAnonymous: true, authenticationType: .session, name: "Bob", email: "b@x.org", nickname: awkward,
            profileURL: "https://x.org/a.png", attributes: ["z": "1", "a": awkward, "B": "", "_": "u"]),
    ]

    static let requests: [WireRequest] = [
        .refresh(refreshToken: "rt-1"), .listConversations(cursor: nil, limit: 20), .listConversations(cursor: "c/9", limit: 0),
        .getConversation(id: "c1"), .listMessages(conversationId: "c1", cursor: nil, limit: 50),
        .listMessages(conversationId: "c1", cursor: "x", limit: -1), .messagesSince(conversationId: "c1", afterSeq: 4, limit: 100),
        .sendMessage(conversationId: "c1", createConversation: nil, message: NewMessage(id: "m-1", content: .text("m 1"), replyTo: nil)),
        .sendMessage(
            conversationId: awkward, createConversation: NewConversation(title: nil),
            message: NewMessage(id: "m-2", content: content[3], replyTo: "m-1")),
        .sendMessage(
            conversationId: "c3", createConversation: NewConversation(title: "Hi"),
            message: NewMessage(id: "m-3", content: .text(awkward), replyTo: nil)),
        .setTyping(conversationId: "c1", isTyping: true), .setTyping(conversationId: "c1", isTyping: false),
        .loginJWT(jwt: "eyJ.eyJ.sig"), .loginAnonymous, .connectUserId(userId: "u"), .connectUserId(userId: "u", signature: "9f"),
        .connectAccessToken(userId: "u", accessToken: "a"), .connectAccessToken(userId: "u", accessToken: "a", signature: "s"),
        .connectSessionToken(userId: "u", sessionToken: "s"), .connectSessionToken(userId: "u", sessionToken: "s", signature: "g"),
        .logout, .registerDevice(pushToken: "p"), .unregisterDevice, .getCurrentUser,
        .updateUser(nickname: nil, profileURL: nil, attributes: nil), .updateUser(nickname: "", profileURL: "u/v", attributes: [:]),
        .updateUser(nickname: "n", profileURL: nil, attributes: ["k": "v", "a": "b"], replaceAttributes: true),
        .updateUser(nickname: nil, profileURL: nil, attributes: nil, replaceAttributes: false),
        .uploadProfileImage(mimeType: "image/png", size: 3), .uploadProfileImage(mimeType: "image/png", size: 3, attachmentId: "a"),
        .uploadAttachment(mimeType: "text/plain", data: Data([0, 1, 2, 0xFF, 0xFE, 0x3F])),
        .uploadAttachment(mimeType: "text/plain", data: Data()), .attachmentData(id: "a"), .appLimits,
    ]

    static let responses: [WireResponse] =
        [
            .tokens(tokens), .conversations(WirePage(elements: conversations, nextCursor: "n")),
            .conversations(WirePage(elements: [], nextCursor: nil)), .messages(WirePage(elements: messages, nextCursor: nil)),
            .ok, .session(tokens: tokens, user: users[0], mergedConversationIds: []),
            .session(tokens: tokens, user: users[1], mergedConversationIds: ["c1", "c2"]),
            .attachment(WireAttachment(id: "a", mimeType: "image/png", size: 3, sha256: "ab")),
            .attachmentData(mimeType: "image/png", data: Data([1, 2, 3, 4, 5])),
            .limits(WireAppLimits(maxAttachmentBytes: 100, allowedMimeTypes: ["image/png", "a/b"])),
            .limits(WireAppLimits(maxAttachmentBytes: 0, allowedMimeTypes: [])),
        ] + conversations.map(WireResponse.conversation) + users.map(WireResponse.user)
        + messages.map { .sent(conversation: conversations[1], message: $0) }

    static let answers: [TapeAnswer] =
        responses.map(TapeAnswer.init) + [
            TapeAnswer(error: WireError(.expiredToken)), TapeAnswer(error: WireError(.badRequest, awkward)),
            TapeAnswer(error: TransportError(.offline, "The device is offline")), TapeAnswer(error: TransportError(.timeout, awkward)),
            TapeAnswer(error: CancellationError()), TapeAnswer(error: TestError()),
            TapeAnswer(error: TransportError(.reset, "x")).withoutKind,
        ]

    static let events: [WireEvent] =
        messages.map { WireEvent(userSeq: 3, kind: .messageCreated($0)) }
        + conversations.map { WireEvent(userSeq: Int64.min, kind: .conversationUpdated($0)) } + [
            WireEvent(userSeq: 9, kind: .typing(conversationId: "c1", providerName: awkward, until: at)),
            WireEvent(userSeq: 9, kind: .typing(conversationId: "c1", providerName: "bot", until: nil)),
        ]

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` written by hand is JSONEncoder's bytes, and decodes back to it.
    static func check<T: Codable & Equatable>(_ value: T, _ written: Data?) throws {
        let expected = try encoder().encode(value)
        #expect(
            written == expected,
            "\(String(decoding: written ?? Data(), as: UTF8.self))\nexpected\n\(String(decoding: expected, as: UTF8.self))")
        #expect(try JSONDecoder().decode(T.self, from: written ?? Data()) == value)
    }

    @Test func envelopes() throws {
        for request in Self.requests {
            for token in [nil, "at-1"] {
                let envelope = WireEnvelope(apiKey: "demo-key", accessToken: token, deviceId: "device-alice", request: request)
                try Self.check(envelope, TapeCoding.encode(envelope))
            }
        }
    }

    @Test func answers() throws {
        for answer in Self.answers { try Self.check(answer, TapeCoding.encode(answer)) }
    }

    @Test func events() throws {
        for event in Self.events { try Self.check(event, TapeCoding.encode(event)) }
    }

    @Test func openingsAndCloses() throws {
        for seq: Int64? in [nil, 0, 42] {
            let opening = TapeOpening(RealtimeRequest(apiKey: "k", accessToken: Self.awkward, deviceId: "d", afterUserSeq: seq))
            try Self.check(opening, TapeCoding.encode(opening))
        }
        for reason in ["", "closed by the client", Self.awkward] {
            try Self.check(TapeClose(reason: reason), TapeCoding.encode(TapeClose(reason: reason)))
        }
    }

    /// The numbers at the edges, and strings of every byte length around
    /// the escapes.
    @Test func values() throws {
        for number: Int64 in [0, 1, 9, 10, 99, 100, -1, -10, Int64.max, Int64.min, 1_767_225_600_000] {
            var json = TapeJSON()
            json.int(number)
            #expect(json.data == (try Self.encoder().encode(number)))
        }
        for text in ["", "\"", "\\", "\n", "a\u{0}b", "é\u{1F}", Self.awkward, String(repeating: "x/", count: 300)] {
            var json = TapeJSON()
            json.string(text)
            #expect(json.data == (try Self.encoder().encode(text)))
        }
    }

    struct TestError: Error {}
}

extension TapeAnswer {
    /// A lost answer as tapes recorded before kinds hold it.
    fileprivate var withoutKind: TapeAnswer {
        var answer = self
        answer.lost?.kind = nil
        return answer
    }
}
