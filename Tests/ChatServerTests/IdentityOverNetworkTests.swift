import ChatBackend
import ChatSDK
import ChatSDKNetwork
import ChatServer
import Foundation
import Testing

/// Identity (A5, A7–A9) over real sockets, through `POST /v1/identity`.
@Suite struct IdentityOverNetworkTests {
    func jwt(_ user: String, expiresIn seconds: Double = 3600, secret: String = ChatServer.demoSecret) -> String {
        AppJWT.sign(AppJWT.Claims(externalId: user, exp: Date().addingTimeInterval(seconds)), secret: secret)
    }

    @Test func jwtLoginRefusalsAndLogout() async throws {
        let server = try await TestServer.start()
        let client = server.makeClient()
        let user = try await client.loginUser(jwt: jwt("alice"))
        #expect(user.id == "alice" && user.authenticationType == .jwt)
        let conversation = try await client.startConversation()
        let sent = try await client.sendMessage(.text("over the network"), in: conversation.id)
        let items = Probe(client.watchItems(ofConversationWithId: conversation.id))
        try await items.wait("the message to be sent") { $0.data.elements.contains { $0.id == sent.id && $0.state == .sent } }
        items.cancel()
        try await client.logout()
        #expect(await client.getCurrentUser() == nil)

        let other = server.makeClient(deviceId: "device-2")
        do {
            _ = try await other.loginUser(jwt: jwt("mallory", secret: "not-the-secret"))
            Issue.record("a forged JWT must be refused")
        } catch let error as ChatError {
            #expect(error.code == ChatError.Code(.invalidJWT))
        }
        do {
            _ = try await other.loginUser(jwt: jwt("bob", expiresIn: -60))
            Issue.record("an expired JWT must be refused")
        } catch let error as ChatError {
            #expect(error.code == ChatError.Code(.expiredJWT))
        }
        await client.shutdown()
        await other.shutdown()
        await server.stop()
    }

    @Test func anonymousThenJWTMergesOverTheNetwork() async throws {
        let server = try await TestServer.start()
        let client = server.makeClient()
        let anonymous = try await client.loginAnonymous()
        #expect(anonymous.isAnonymous)
        let conversation = try await client.startConversation(title: "before signing up")
        let sent = try await client.sendMessage(.text("question"), in: conversation.id)
        let items = Probe(client.watchItems(ofConversationWithId: conversation.id))
        try await items.wait("the message to be sent") { $0.data.elements.contains { $0.id == sent.id && $0.state == .sent } }
        items.cancel()
        try await client.loginUser(jwt: jwt("alice"))
        let list = Probe(client.watchConversations())
        let merged = try await list.wait("the merged list") { $0.isDataFresh && !$0.data.elements.isEmpty }
        #expect(merged.data.elements.map(\.id) == [conversation.id])
        list.cancel()
        await client.shutdown()
        await server.stop()
    }
}
