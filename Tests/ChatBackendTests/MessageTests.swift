import ChatBackend
import ChatCore
import Testing

@Suite struct MessageTests {
    @Test func firstMessageCreatesTheConversation() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        world.clock.advance(.seconds(5))
        let (conversation, message) = try world.send("hello", id: "local-1", in: "conv-local", token: alice)
        #expect(conversation.id == "conv-local")
        #expect(conversation.lastSeq == 1 && conversation.lastMessagePreview == "hello")
        #expect(conversation.createdAt == world.clock.now && conversation.updatedAt == world.clock.now)
        #expect(message.id == "local-1" && message.seq == 1 && message.author == .user(id: "alice"))
        #expect(world.backend.conversations(userId: "alice").map(\.id) == ["conv-local"])
        // Creating again with the same id by the same owner is fine.
        let (_, second) = try world.send("again", id: "local-2", in: "conv-local", token: alice)
        #expect(second.seq == 2)
        #expect(world.backend.conversations(userId: "alice").count == 1)
    }

    @Test func sendingToAnUnknownConversationWithoutCreateFails() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        #expect(
            world.errorCode(
                .sendMessage(
                    conversationId: "nope", createConversation: nil,
                    message: NewMessage(id: "m1", content: .text("hi"), replyTo: nil)), token: alice) == .unknownConversation)
        #expect(world.backend.conversations(userId: "alice").isEmpty)
    }

    @Test func aRejectedFirstMessageDoesNotCreateTheConversation() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        #expect(
            world.errorCode(
                .sendMessage(
                    conversationId: "c1", createConversation: NewConversation(title: nil),
                    message: NewMessage(id: "m1", content: .text(""), replyTo: nil)), token: alice) == .badRequest)
        #expect(world.backend.conversations(userId: "alice").isEmpty)
    }

    @Test func resendingTheSameIdIsIdempotent() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let log = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { log.append($0) }
        let (_, first) = try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        world.clock.advance(.seconds(10))
        let (conversation, again) = try world.send("hello (edited?)", id: "m1", in: "c1", token: pair.accessToken)
        #expect(again == first)
        #expect(conversation.lastSeq == 1)
        #expect(try world.backend.messages(conversationId: "c1") == [first])
        #expect(log.userSeqs == [1, 2]) // messageCreated + conversationUpdated, once
        #expect(world.backend.latestUserSeq(userId: "alice") == 2)
        // The same id in another conversation is another message.
        let (_, other) = try world.send("hello", id: "m1", in: "c2", token: pair.accessToken)
        #expect(other.conversationId == "c2" && other.seq == 1)
    }

    @Test func textLimits() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        func code(_ text: String) -> WireError.Code? {
            world.errorCode(
                .sendMessage(
                    conversationId: "c1", createConversation: NewConversation(title: nil),
                    message: NewMessage(id: "m-\(text.count)", content: .text(text), replyTo: nil)), token: alice)
        }
        #expect(code("") == .badRequest)
        #expect(code("   \n") == .badRequest)
        #expect(code(String(repeating: "a", count: 10_001)) == .badRequest)
        #expect(code(String(repeating: "a", count: 10_000)) == nil)
    }

    @Test func attachmentLimits() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        func send(_ mime: String, _ size: Int64, id: String) -> Result<WireResponse, WireError> {
            world.handle(
                .sendMessage(
                    conversationId: "c1", createConversation: NewConversation(title: nil),
                    message: NewMessage(
                        id: id, content: .attachment(kind: .image, mimeType: mime, size: size, fileName: "a.png"),
                        replyTo: nil)), token: alice)
        }
        #expect(send("image/png", 25 * 1024 * 1024 + 1, id: "a").errorCode == .attachmentTooLarge)
        #expect(send("image/tiff", 10, id: "b").errorCode == .unsupportedMediaType)
        #expect(send("image/png", -1, id: "c").errorCode == .badRequest)
        #expect(send("IMAGE/PNG", 25 * 1024 * 1024, id: "d").errorCode == nil)
        #expect(try world.backend.messages(conversationId: "c1").count == 1)
        #expect(world.backend.conversations(userId: "alice").first?.lastMessagePreview == "[image] a.png")

        try world.backend.updateSettings(apiKey: TestWorld.apiKey) {
            $0.maxAttachmentBytes = 100
            $0.allowedMimeTypes = ["image/tiff"]
        }
        #expect(send("image/tiff", 101, id: "e").errorCode == .attachmentTooLarge)
        #expect(send("image/png", 10, id: "f").errorCode == .unsupportedMediaType)
        #expect(send("image/tiff", 100, id: "g").errorCode == nil)
    }

    @Test func listMessagesPagesNewestFirst() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        for i in 1...7 { try world.send("text \(i)", id: "m\(i)", in: "c1", token: alice) }
        var seqs: [Int64] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try world.messagePage(.listMessages(conversationId: "c1", cursor: cursor, limit: 3), token: alice)
            seqs += page.elements.map(\.seq)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seqs == [7, 6, 5, 4, 3, 2, 1])
        #expect(pages == 3)
        // An exact multiple of the page size ends without an empty page.
        let all = try world.messagePage(.listMessages(conversationId: "c1", cursor: nil, limit: 7), token: alice)
        #expect(all.elements.count == 7 && all.nextCursor == nil)
        // A conversation cursor is not a message cursor.
        let conversationCursor = "YzE6NTox" // "c1:5:1"
        #expect(world.errorCode(.listMessages(conversationId: "c1", cursor: conversationCursor, limit: 3), token: alice) == .badRequest)
        #expect(world.errorCode(.listMessages(conversationId: "c1", cursor: "%%%", limit: 3), token: alice) == .badRequest)
    }

    @Test func messagesSinceIsOldestFirstAfterTheSeq() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        for i in 1...5 { try world.send("text \(i)", id: "m\(i)", in: "c1", token: alice) }
        let page = try world.messagePage(.messagesSince(conversationId: "c1", afterSeq: 2, limit: 2), token: alice)
        #expect(page.elements.map(\.seq) == [3, 4])
        #expect(page.nextCursor != nil)
        let rest = try world.messagePage(.messagesSince(conversationId: "c1", afterSeq: 4, limit: 2), token: alice)
        #expect(rest.elements.map(\.seq) == [5])
        #expect(rest.nextCursor == nil)
        #expect(try world.messagePage(.messagesSince(conversationId: "c1", afterSeq: Int64.max, limit: 2), token: alice).elements.isEmpty)
        #expect(
            try world.messagePage(.messagesSince(conversationId: "c1", afterSeq: Int64.min, limit: 100), token: alice).elements.count == 5)
    }

    @Test func repliesAreKept() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        try world.send("question", id: "m1", in: "c1", token: alice)
        _ = try world.handle(
            .sendMessage(
                conversationId: "c1", createConversation: nil,
                message: NewMessage(id: "m2", content: .text("more"), replyTo: "m1")), token: alice
        ).get()
        #expect(try world.backend.messages(conversationId: "c1").map(\.replyTo) == [nil, "m1"])
    }

    @Test func aResendWithAMalformedContentIsRefusedNotAnsweredFromTheStore() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        _ = try world.send("hello", id: "m1", in: "c1", token: alice)
        let longName = String(repeating: "n", count: 1_025)
        #expect(
            world.errorCode(
                .sendMessage(
                    conversationId: "c1", createConversation: nil,
                    message: NewMessage(
                        id: "m1", content: .attachment(kind: .image, mimeType: "image/png", size: 1, fileName: longName), replyTo: nil)),
                token: alice) == .badRequest)
        #expect(try world.backend.messages(conversationId: "c1").map(\.id) == ["m1"])
    }

    @Test func aReplyToNoMessageOfTheConversationIsRefused() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        _ = try world.send("question", id: "m1", in: "c1", token: alice)
        _ = try world.send("elsewhere", id: "o1", in: "c2", token: alice)
        for replyTo in ["nothing", "o1"] {
            #expect(
                world.errorCode(
                    .sendMessage(
                        conversationId: "c1", createConversation: nil,
                        message: NewMessage(id: "r-\(replyTo)", content: .text("re"), replyTo: replyTo)), token: alice) == .unknownMessage)
        }
        #expect(try world.backend.messages(conversationId: "c1").map(\.id) == ["m1"])
    }

    @Test func inspectingAnUnknownConversationThrows() throws {
        let world = try TestWorld()
        #expect(throws: WireError(.unknownConversation)) { try world.backend.messages(conversationId: "nope") }
    }
}

extension Result where Failure == WireError {
    var errorCode: WireError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
