import ChatCore
import ChatSDK
import ChatSimulation
import Testing

/// Over a real network the realtime events of a send can arrive before the
/// send's own answer. The SDK must not show the conversation going back in
/// time meanwhile.
@Suite struct OutOfOrderDeliveryTests {
    /// Holds every sendMessage answer back, so the events come first.
    struct SlowSendAnswers: ChatTransport {
        let world: World
        let inner: any ChatTransport
        /// The agent answers on the server while the send's answer is on its way.
        var agentAnswers = false
        func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
            let response = try await inner.perform(envelope)
            if case .sendMessage(let conversationId, _, _) = envelope.request {
                if agentAnswers { _ = try world.backend.agentSay(conversationId: conversationId, text: "answer") }
                try await world.sleep(for: .milliseconds(300), kind: .inFlight)
            }
            return response
        }
        func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection { try await inner.openRealtime(request) }
        func reachability() -> AsyncStream<Bool> { inner.reachability() }
    }

    @Test func aConversationNeverCountsFewerMessagesWhileItsFirstIsSent() throws {
        let f = try Fixture(transport: { SlowSendAnswers(world: $0, inner: $1) })
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        let conversation = try f.call { try await f.client.startConversation(title: "Knee pain") }
        try f.call { try await f.client.sendMessage(.text("Hello"), in: conversation.id) }
        try f.call { try await f.client.sendMessage(.text("Again"), in: conversation.id) }
        let counts = watcher.all.compactMap { $0.data.elements.first?.messageCount }
        #expect(counts.last == 2)
        #expect(counts == counts.sorted(), "counts went back: \(counts)")
    }

    @Test func anAnswerOlderThanTheEventsIsIgnored() throws {
        let f = try Fixture(transport: { SlowSendAnswers(world: $0, inner: $1, agentAnswers: true) })
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        let conversation = try f.call { try await f.client.startConversation(title: "Knee pain") }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        // The answer to the send (1 message, "one") came after the agent's "answer".
        #expect(watcher.last?.data.elements.first?.messageCount == 2)
        #expect(watcher.last?.data.elements.first?.lastMessagePreview == "answer")
    }
}
