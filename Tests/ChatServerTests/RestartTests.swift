import ChatSDK
import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// A server stopped in the middle of a session and started again on the same
/// database: nothing acknowledged is lost, the client reconnects and catches up.
@Suite struct RestartTests {
    @Test func nothingAcknowledgedIsLostAcrossARestart() async throws {
        let first = try await TestServer.start()
        let client = first.makeClient()
        try await client.setCurrentUser(userId: "alice")
        let conversation = try await client.startConversation(title: "Before")
        let items = Probe(client.watchItems(ofConversationWithId: conversation.id))
        var sentIds: [String] = []
        for index in 1...3 { sentIds.append(try await client.sendMessage(.text("m\(index)"), in: conversation.id).id) }
        try await items.wait("three sent messages") { response in
            response.data.elements.filter { $0.state == .sent }.count == 3
        }
        try await eventually("the event stream") { await client.connectionState == .connected }
        try await first.app.agentSay("before the restart", in: conversation.id)
        try await items.wait("the agent's first message") { $0.data.elements.contains { $0.preview == "before the restart" } }

        await first.stop()
        try await eventually("the client to notice") { await client.connectionState != .connected }
        let second = try await TestServer.start(in: first.folder, port: first.port)
        let stored = try second.server.backend.messages(conversationId: conversation.id)
        try await second.app.agentSay("after the restart", in: conversation.id)
        // The client comes back at its next back-off attempt: up to 30 s
        // after a long restart (a loaded CI machine took more than 15).
        let final = try await items.wait("the message said after the restart", timeout: .seconds(45)) { response in
            response.data.elements.contains { $0.preview == "after the restart" }
        }
        try await eventually("the event stream again", timeout: .seconds(45)) { await client.connectionState == .connected }
        items.cancel()
        await client.shutdown()
        await second.stop()

        #expect(stored.map(\.id).filter(sentIds.contains) == sentIds)
        #expect(final.data.elements.compactMap(\.seq) == [5, 4, 3, 2, 1])
        #expect(final.data.elements.allSatisfy { $0.state == .sent })
    }
}
