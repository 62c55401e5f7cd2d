import ChatSDK
import ChatSimulation
import ChatTestSupport
import Testing

/// A6, D6: no message is left `toBeSent` or `sending` with no end when the
/// session ends on the device.
@Suite struct MessageEndTests {
    @Test func messagesOnTheirWayWhenTheUserIsClearedEndFailed() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        f.world.network.setOnline(false)
        let message = try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        _ = f.world.run { await f.client.clearCurrentUser() }
        let states = f.events.withLock {
            $0.compactMap { event -> String? in
                guard case .messageStateChanged(let m) = event, m.id == message.id else { return nil }
                if case .failed(let error) = m.state { return "failed \(error.code)" }
                return m.state.name
            }
        }
        #expect(states.first == "toBeSent")
        #expect(states.last == "failed userCleared", "\(states)")
    }
}
