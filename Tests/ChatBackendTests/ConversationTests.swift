import ChatBackend
import ChatCore
import Testing

@Suite struct ConversationTests {
    @Test func aUserSeesOnlyTheirOwnConversations() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let bob = try world.tokens("bob").accessToken
        try world.send("hi", id: "m1", in: "c-alice", token: alice)
        #expect(world.errorCode(.getConversation(id: "c-alice"), token: bob) == .forbidden)
        #expect(world.errorCode(.listMessages(conversationId: "c-alice", cursor: nil, limit: 10), token: bob) == .forbidden)
        #expect(world.errorCode(.messagesSince(conversationId: "c-alice", afterSeq: 0, limit: 10), token: bob) == .forbidden)
        #expect(world.errorCode(.setTyping(conversationId: "c-alice", isTyping: true), token: bob) == .forbidden)
        // Sending into it without createConversation is forbidden too.
        #expect(
            world.errorCode(
                .sendMessage(
                    conversationId: "c-alice", createConversation: nil,
                    message: NewMessage(id: "x", content: .text("intrude"), replyTo: nil)), token: bob) == .forbidden)
        #expect(try world.conversationPage(token: bob, limit: 10).elements.isEmpty)
        #expect(try world.backend.messages(conversationId: "c-alice").count == 1)
        #expect(world.errorCode(.getConversation(id: "nope"), token: bob) == .unknownConversation)
        #expect(world.errorCode(.listMessages(conversationId: "nope", cursor: nil, limit: 10), token: bob) == .unknownConversation)
    }

    /// Ids are chosen by clients and global: asking for one another user holds
    /// creates the caller's own conversation under an id the server mints,
    /// which the caller's retries and later requests under the asked-for id
    /// also reach. Nobody can squat another user's id (issue 13, item 10).
    @Test func anIdAnotherUserHoldsGetsOneTheServerMints() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let bob = try world.tokens("bob").accessToken
        try world.send("hi", id: "m1", in: "c-1", token: alice)
        let (conversation, message) = try world.send("mine", id: "m1", in: "c-1", token: bob)
        #expect(conversation.id != "c-1")
        #expect(message.conversationId == conversation.id)
        #expect(message.seq == 1)
        // Alice's conversation is untouched; Bob sees only his own.
        #expect(try world.backend.messages(conversationId: "c-1").map(\.author) == [.user(id: "alice")])
        #expect(try world.conversationPage(token: bob, limit: 10).elements.map(\.id) == [conversation.id])
        #expect(try world.conversationPage(token: alice, limit: 10).elements.map(\.id) == ["c-1"])
        // A retry of the same send finds the same conversation and message.
        let (again, sameMessage) = try world.send("mine", id: "m1", in: "c-1", token: bob)
        #expect(again.id == conversation.id)
        #expect(sameMessage == message)
        // Under the id he asked for, Bob reaches his conversation, not Alice's.
        let (_, second) = try world.send("more", id: "m2", in: "c-1", token: bob, create: false)
        #expect(second.conversationId == conversation.id)
        #expect(second.seq == 2)
        let page = try world.messagePage(.listMessages(conversationId: "c-1", cursor: nil, limit: 10), token: bob)
        #expect(page.elements.map(\.id) == ["m2", "m1"])
        #expect(page.elements.allSatisfy { $0.conversationId == conversation.id })
        let since = try world.messagePage(.messagesSince(conversationId: "c-1", afterSeq: 0, limit: 10), token: bob)
        #expect(since.elements.map(\.id) == ["m1", "m2"])
        // And under the minted id as well; Alice cannot reach Bob's.
        #expect(
            try world.messagePage(.listMessages(conversationId: conversation.id, cursor: nil, limit: 10), token: bob).elements.count == 2)
        #expect(world.errorCode(.getConversation(id: conversation.id), token: alice) == .forbidden)
        #expect(try world.backend.messages(conversationId: "c-1").count == 1)
    }

    @Test func conversationsPageMostRecentlyUpdatedFirst() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        // c0..c4 created one second apart; c3 and c4 share an instant.
        for i in 0..<5 {
            if i != 4 { world.clock.advance(.seconds(1)) }
            try world.send("hello \(i)", id: "m\(i)", in: "c\(i)", token: alice)
        }
        // A new message moves c1 to the top.
        world.clock.advance(.seconds(1))
        try world.send("again", id: "m-again", in: "c1", token: alice)

        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try world.conversationPage(token: alice, cursor: cursor, limit: 2)
            seen += page.elements.map(\.id)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seen == ["c1", "c3", "c4", "c2", "c0"])
        #expect(pages == 3)
        #expect(world.backend.conversations(userId: "alice").map(\.id) == seen)

        let first = try world.conversationPage(token: alice, limit: 100).elements.first
        #expect(first?.lastSeq == 2)
        #expect(first?.lastMessagePreview == "again")
    }

    @Test func limitIsClamped() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        for i in 0..<3 { try world.send("x", id: "m", in: "c\(i)", token: alice) }
        #expect(try world.conversationPage(token: alice, limit: 0).elements.count == 1)
        #expect(try world.conversationPage(token: alice, limit: -5).elements.count == 1)
        #expect(try world.conversationPage(token: alice, limit: Int.max).elements.count == 3)
    }

    @Test(arguments: ["", "garbage", "!!!", "bTE6NQ", "(very long)", "YzE6eHg6aWQ"])
    func malformedCursorIsABadRequest(cursor: String) throws {
        // "bTE6NQ" is a message cursor ("m1:5"), "YzE6eHg6aWQ" is "c1:xx:id".
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        let cursor = cursor == "(very long)" ? String(repeating: "A", count: 5000) : cursor
        #expect(world.errorCode(.listConversations(cursor: cursor, limit: 10), token: alice) == .badRequest)
    }

    /// Every cursor of docs/openapi.json's patterns is a position (issue 26),
    /// even one that no page gave; the other kind's is refused; those of
    /// earlier servers are still read.
    @Test func cursorsOfTheDocumentsPatternsAreRead() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        for i in 0..<3 { try world.send("x", id: "m", in: "c\(i)", token: alice) }
        let first = try world.conversationPage(token: alice, limit: 1)
        let next = try #require(first.nextCursor)
        #expect(next.wholeMatch(of: /c-?[0-9]{1,18}\.([0-9a-f]{2})+/) != nil, "\(next)")
        #expect(try world.conversationPage(token: alice, cursor: next, limit: 5).elements.count == 2)
        for cursor in ["c0.00", "c-5.ff", "c123456789012345678.c328", "YzE6NTox"] {
            #expect((try? world.conversationPage(token: alice, cursor: cursor, limit: 5)) != nil, "\(cursor)")
        }
        for cursor in ["m0", "m123456789012345678", "bTE6NQ"] {
            #expect(world.errorCode(.listConversations(cursor: cursor, limit: 5), token: alice) == .badRequest, "\(cursor)")
            #expect(
                (try? world.messagePage(.listMessages(conversationId: "c0", cursor: cursor, limit: 5), token: alice)) != nil, "\(cursor)")
        }
        #expect(world.errorCode(.listMessages(conversationId: "c0", cursor: "c0.00", limit: 5), token: alice) == .badRequest)
        #expect(world.errorCode(.listConversations(cursor: "c0.0", limit: 5), token: alice) == .badRequest)
    }

    @Test func getConversationReturnsIt() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        _ = try world.handle(
            .sendMessage(
                conversationId: "c1", createConversation: NewConversation(title: "Question"),
                message: NewMessage(id: "m1", content: .text("hi"), replyTo: nil)), token: alice
        ).get()
        guard case .conversation(let conversation) = try world.handle(.getConversation(id: "c1"), token: alice).get() else {
            Issue.record("expected a conversation")
            return
        }
        #expect(conversation.title == "Question")
        #expect(conversation.createdAt == Instant.simulationEpoch)
        #expect(conversation.lastSeq == 1)
        #expect(conversation.providerTypingUntil == nil)
        #expect(try world.handle(.setTyping(conversationId: "c1", isTyping: true), token: alice).get() == .ok)
    }
}
