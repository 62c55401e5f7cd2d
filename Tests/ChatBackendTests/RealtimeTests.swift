import ChatBackend
import ChatCore
import ChatTestSupport
import Synchronization
import Testing

@Suite struct RealtimeTests {
    @Test func subscriberReceivesNewEventsInOrder() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let log = EventLog()
        let id = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { log.append($0) }
            .get()
        #expect(log.events.isEmpty)
        let (conversation, message) = try world.send("hi", id: "m1", in: "c1", token: pair.accessToken)
        #expect(
            log.events == [
                WireEvent(userSeq: 1, kind: .messageCreated(message)),
                WireEvent(userSeq: 2, kind: .conversationUpdated(conversation)),
            ])
        world.backend.unsubscribe(id)
        try world.send("again", id: "m2", in: "c1", token: pair.accessToken)
        #expect(log.events.count == 2)
        #expect(world.backend.latestUserSeq(userId: "alice") == 4)
    }

    @Test func catchUpAfterAGapReplaysExactlyTheMissedEvents() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let first = EventLog()
        let id = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) {
            first.append($0)
        }.get()
        try world.send("one", id: "m1", in: "c1", token: pair.accessToken)
        let seen = try #require(first.userSeqs.last)
        world.backend.unsubscribe(id) // the connection drops

        try world.send("two", id: "m2", in: "c1", token: pair.accessToken)
        try world.backend.agentSay(conversationId: "c1", text: "three")
        try world.backend.agentTyping(conversationId: "c1", isTyping: true)
        let missed = world.backend.events(userId: "alice", afterUserSeq: seen)
        #expect(missed.map(\.userSeq) == [3, 4, 5, 6, 7])

        let second = EventLog()
        _ = try world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: seen) { second.append($0) }
            .get()
        #expect(second.events == missed)
        try world.send("four", id: "m4", in: "c1", token: pair.accessToken)
        #expect(second.userSeqs == [3, 4, 5, 6, 7, 8, 9])
        // Everything seen across both connections: no gap, no duplicate.
        #expect(first.userSeqs + second.userSeqs == Array(1...9))
    }

    @Test func subscribingFromZeroReplaysEverything() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        try world.send("one", id: "m1", in: "c1", token: pair.accessToken)
        let log = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: 0) { log.append($0) }
        #expect(log.userSeqs == [1, 2])
    }

    @Test func eventsOfOtherUsersNeverArrive() throws {
        let world = try TestWorld()
        let alice = try world.tokens("alice")
        let bob = try world.tokens("bob")
        let aliceLog = EventLog()
        let bobLog = EventLog()
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: alice.accessToken, afterUserSeq: 0) { aliceLog.append($0) }
        _ = world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: bob.accessToken, afterUserSeq: 0) { bobLog.append($0) }
        try world.send("alice's", id: "m1", in: "c-alice", token: alice.accessToken)
        try world.backend.agentSay(conversationId: "c-alice", text: "for alice")
        #expect(aliceLog.userSeqs == [1, 2, 3, 4])
        #expect(bobLog.events.isEmpty)
        try world.send("bob's", id: "m1", in: "c-bob", token: bob.accessToken)
        #expect(bobLog.userSeqs == [1, 2])
    }

    @Test func subscribeNeedsAValidToken() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let sink: @Sendable (WireEvent) -> Void = { _ in }
        #expect(
            world.backend.subscribe(apiKey: "nope", accessToken: pair.accessToken, afterUserSeq: nil, sink: sink).errorCode
                == .invalidApiKey)
        #expect(
            world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: "bogus", afterUserSeq: nil, sink: sink).errorCode
                == .invalidToken)
        world.clock.advance(.seconds(3600))
        #expect(
            world.backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil, sink: sink).errorCode
                == .expiredToken)
    }

    @Test func aSinkMayCallBackIntoTheBackend() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let log = EventLog()
        let backend = world.backend
        _ = backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { event in
            log.append(event)
            // The agent answers every user message, from inside the sink.
            if case .messageCreated(let message) = event.kind, case .user = message.author {
                _ = try? backend.agentSay(conversationId: message.conversationId, text: "echo")
            }
        }
        try world.send("hi", id: "m1", in: "c1", token: pair.accessToken)
        #expect(log.userSeqs == [1, 2, 3, 4])
        #expect(try backend.messages(conversationId: "c1").map(\.text) == ["hi", "echo"])
    }

    @Test func aSinkMayUnsubscribeItself() throws {
        let world = try TestWorld()
        let pair = try world.tokens("alice")
        let log = EventLog()
        let backend = world.backend
        let holder = Locked<SubscriptionID?>(nil) // lets the sink know its own subscription id
        let id = try backend.subscribe(apiKey: TestWorld.apiKey, accessToken: pair.accessToken, afterUserSeq: nil) { event in
            log.append(event)
            if let id = holder.value { backend.unsubscribe(id) }
        }.get()
        holder.value = id
        try world.send("hi", id: "m1", in: "c1", token: pair.accessToken)
        #expect(log.userSeqs == [1])
        #expect(backend.subscriptionCount(userId: "alice") == 0)
    }
}
