import ChatBackend
import ChatCore
import Testing

@Suite struct AgentTests {
    @Test func agentSayCreatesAProviderMessageAndEvents() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        let log = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { log.append($0) }
        world.clock.advance(.seconds(3))
        let message = try world.backend.agentSay(conversationId: "c1", text: "How can I help?", agentName: "Dr. Who")
        #expect(message.id.hasPrefix("msg-"))
        #expect(message.seq == 2 && message.author == .provider(name: "Dr. Who") && message.createdAt == world.clock.now)
        let conversation = try #require(world.backend.conversations(userId: "alice").first)
        #expect(
            conversation.lastSeq == 2 && conversation.updatedAt == world.clock.now && conversation.lastMessagePreview == "How can I help?")
        #expect(
            log.events == [
                WireEvent(userSeq: 3, kind: .messageCreated(message)),
                WireEvent(userSeq: 4, kind: .conversationUpdated(conversation)),
            ])
        let page = try world.messagePage(.listMessages(conversationId: "c1", cursor: nil, limit: 10), token: pair.accessToken)
        #expect(page.elements.map(\.text) == ["How can I help?", "hello"])
    }

    @Test func agentErrors() throws {
        let world = try TestWorld()
        #expect(throws: WireError(.unknownConversation)) { try world.backend.agentSay(conversationId: "nope", text: "x") }
        #expect(throws: WireError(.unknownConversation)) { try world.backend.agentTyping(conversationId: "nope", isTyping: true) }
        #expect(throws: WireError(.unknownConversation)) { try world.backend.agentRead(conversationId: "nope") }
        let alice = try world.tokens("alice").accessToken
        try world.send("hello", id: "m1", in: "c1", token: alice)
        #expect(throws: WireError.self) { try world.backend.agentSay(conversationId: "c1", text: "") }
    }

    @Test func agentTypingSetsAnExpiringStateAndEmitsEvents() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("hello", id: "m1", in: "c1", token: pair.accessToken)
        let log = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { log.append($0) }

        try world.backend.agentTyping(conversationId: "c1", isTyping: true, agentName: "bot")
        let until = world.clock.now + .seconds(6)
        #expect(log.events == [WireEvent(userSeq: 3, kind: .typing(conversationId: "c1", providerName: "bot", until: until))])
        #expect(world.backend.conversations(userId: "alice").first?.providerTypingUntil == until)
        guard case .conversation(let viaWire) = try world.handle(.getConversation(id: "c1"), token: pair.accessToken).get() else {
            Issue.record("expected a conversation")
            return
        }
        #expect(viaWire.providerTypingUntil == until)

        // It expires on its own.
        world.clock.advance(.seconds(6))
        #expect(world.backend.conversations(userId: "alice").first?.providerTypingUntil == nil)

        // Renewed, then switched off.
        try world.backend.agentTyping(conversationId: "c1", isTyping: true, agentName: "bot")
        try world.backend.agentTyping(conversationId: "c1", isTyping: false, agentName: "bot")
        #expect(log.events.last == WireEvent(userSeq: 5, kind: .typing(conversationId: "c1", providerName: "bot", until: nil)))
        #expect(world.backend.conversations(userId: "alice").first?.providerTypingUntil == nil)
    }

    @Test func agentTypingEndsWhenTheAgentSpeaks() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        try world.send("hello", id: "m1", in: "c1", token: alice)
        try world.backend.agentTyping(conversationId: "c1", isTyping: true)
        try world.backend.agentSay(conversationId: "c1", text: "done typing")
        #expect(world.backend.conversations(userId: "alice").first?.providerTypingUntil == nil)
    }

    @Test func typingTTLComesFromSettings() throws {
        var settings = AppSettings()
        settings.typingTTL = .milliseconds(1500)
        let world = try TestWorld(settings: settings)
        let alice = try world.tokens("alice").accessToken
        try world.send("hello", id: "m1", in: "c1", token: alice)
        try world.backend.agentTyping(conversationId: "c1", isTyping: true)
        #expect(world.backend.conversations(userId: "alice").first?.providerTypingUntil == world.clock.now + .milliseconds(1500))
    }

    @Test func agentReadRecordsTheReadPosition() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice").accessToken
        try world.send("one", id: "m1", in: "c1", token: alice)
        try world.send("two", id: "m2", in: "c1", token: alice)
        #expect(try world.backend.providerReadSeq(conversationId: "c1") == 0)
        try world.backend.agentRead(conversationId: "c1")
        #expect(try world.backend.providerReadSeq(conversationId: "c1") == 2)
    }
}
