import ChatSDK
import ChatSDKTestKit
import Foundation
import Testing

/// ChatSDKTestKit's controls, through its public API and the SDK's: the
/// other side, time, faults and credentials.
@Suite struct TestKitTests {
    func signedIn(_ world: ChatTestWorld) async throws -> (ChatClient, Conversation) {
        let client = world.makeClient()
        try await client.setCurrentUser(userId: "alice")
        let conversation = try await client.startConversation()
        _ = try await client.sendMessage(.text("hello"), in: conversation.id) // the server has it from here on
        await world.settle()
        return (client, conversation)
    }

    @Test func theAgentTypesAndTypingExpiresWithTime() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let (client, conversation) = try await signedIn(world)
            try await world.agent.typing(in: conversation.id)
            await world.settle()
            #expect(try await client.conversation(withId: conversation.id)?.providerTyping == true)
            await world.advance(by: .seconds(60))
            #expect(try await client.conversation(withId: conversation.id)?.providerTyping == false)
        }
    }

    @Test func theAgentReadsAndSignsWithItsName() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let (client, conversation) = try await signedIn(world)
            let sent = try await client.sendMessage(.text("hi"), in: conversation.id)
            let answer = try await world.agent(named: "Dr. Who").say("hello", in: conversation.id)
            try await world.agent.read(conversation.id)
            await world.settle()
            #expect(try await client.message(withId: answer)?.author == .provider(name: "Dr. Who"))
            #expect(try await client.message(withId: sent.id)?.isReadByProvider == true)
        }
    }

    @Test func anUnknownConversationIsTheSDKsError() async throws {
        let world = try ChatTestWorld()
        await world.run {
            let error = await #expect(throws: ChatError.self) { try await world.agent.say("hi", in: "nowhere") }
            #expect(error?.code == .unknownConversation)
        }
    }

    @Test func timeMovesOnlyWhenTheTestSays() async throws {
        let world = try ChatTestWorld()
        await world.run {
            let start = world.now
            await world.advance(by: .seconds(90))
            #expect(world.now.timeIntervalSince(start) == 90)
        }
    }

    @Test func expiredTokensAreRenewedThroughTheProvider() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let (client, conversation) = try await signedIn(world)
            await world.credentials.expireAccessTokens(userId: "alice")
            let message = try await client.sendMessage(.text("still here"), in: conversation.id)
            await world.settle()
            #expect(try await client.message(withId: message.id)?.state == .sent)
        }
    }

    /// Revoked tokens end the session with its reason, at the event
    /// stream's first opening refused (no loop: it was opened again with
    /// the revoked token for an hour); the app sets its user again, the
    /// provider is asked, and sending works.
    @Test func revokedTokensEndTheSessionAndSettingTheUserAgainSignsIn() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let events = Events()
            var configuration = world.clientConfiguration()
            configuration.onEvent = { events.append("\($0)") }
            let client = ChatClient(configuration: configuration, tokenProvider: world.tokenProvider)
            try await client.setCurrentUser(userId: "alice")
            let conversation = try await client.startConversation()
            _ = try await client.sendMessage(.text("hello"), in: conversation.id)
            await world.settle()
            let before = events.all.count
            await world.credentials.revokeTokens(userId: "alice")
            await world.advance(by: .seconds(5))
            #expect(await client.sessionState == .closed(reason: "invalidToken"))
            let after = events.all.dropFirst(before)
            #expect(after.first == "connectionChanged(waitingForNetwork(closedByServer(The user's tokens were revoked)))")
            #expect(after.filter { $0 == "connectionChanged(connecting)" }.count == 1, "\(after)")
            try await client.setCurrentUser(userId: "alice")
            let next = try await client.startConversation()
            let message = try await client.sendMessage(.text("again"), in: next.id)
            await world.settle()
            #expect(try await client.message(withId: message.id)?.state == .sent)
            #expect(events.all.contains("sessionChanged(authenticated(alice, via: tokens))"))
        }
    }

    /// A JWT user's revoked tokens end the session the same way.
    @Test func aRevokedJWTUsersSessionIsClosed() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let client = ChatClient(configuration: world.clientConfiguration())
            try await client.loginUser(jwt: await world.credentials.signJWT(userId: "bob"))
            _ = try await client.startConversation()
            await world.settle()
            await world.credentials.revokeTokens(userId: "bob")
            await world.advance(by: .seconds(5))
            #expect(await client.sessionState == .closed(reason: "invalidToken"))
        }
    }

    /// Events as a client's `onEvent` reports them.
    final class Events: @unchecked Sendable {
        // @unchecked: `list` is read and written under `lock` only.
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ event: String) { lock.withLock { list.append(event) } }
        var all: [String] { lock.withLock { list } }
    }

    @Test func aSignedJWTSignsTheUserIn() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let client = ChatClient(configuration: world.clientConfiguration())
            let user = try await client.loginUser(jwt: await world.credentials.signJWT(userId: "bob"))
            #expect(user.id == "bob" && user.authenticationType == .jwt)
        }
    }

    @Test func issuedAccessAndSessionTokensConnect() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let byAccess = ChatClient(configuration: world.clientConfiguration(deviceId: "device-1"))
            let access = try await world.credentials.accessToken(forUserId: "carol")
            #expect(try await byAccess.connect(userId: "carol", accessToken: access).id == "carol")
            let bySession = ChatClient(configuration: world.clientConfiguration(deviceId: "device-2"))
            let session = try await world.credentials.sessionToken(forUserId: "dave", ttl: .seconds(600))
            #expect(try await bySession.connect(userId: "dave", sessionToken: session).id == "dave")
        }
    }

    @Test func latencyAndFailuresReachTheSDK() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let (client, conversation) = try await signedIn(world)
            await world.network.setLatency(.milliseconds(500))
            let before = world.now
            _ = try await client.conversation(withId: conversation.id)
            let requests = await world.network.requestCount
            let message = try await client.sendMessage(.text("slow"), in: conversation.id)
            await world.settle()
            #expect(world.now > before)
            #expect(await world.network.requestCount > requests)
            #expect(try await client.message(withId: message.id)?.state == .sent)
            await world.network.dropConnections()
            await world.settle()
            #expect(await client.connectionState == .connected)
        }
    }

    /// docs/integration.md's example, run.
    @Test func theGuidesExample() async throws {
        let world = try ChatTestWorld()
        try await world.run {
            let client = world.makeClient()
            try await client.setCurrentUser(userId: "alice")
            let conversation = try await client.startConversation()
            await world.network.failNext(1) // the SDK retries by itself
            let sent = try await client.sendMessage(.text("Hello"), in: conversation.id)
            await world.settle()
            try await world.agent.say("How can I help?", in: conversation.id)
            await world.settle()
            #expect(try await client.message(withId: sent.id)?.state == .sent)
            #expect(try await client.conversation(withId: conversation.id)?.lastMessagePreview == "How can I help?")
        }
    }

    /// Outside `run` a call's work partly runs on the thread pool; it must
    /// complete all the same (the world wakes when that work schedules
    /// something in flight), however often it is tried.
    @Test(arguments: 0..<10) func callsOutsideRunStillComplete(_ attempt: Int) async throws {
        let world = try ChatTestWorld()
        let access = try await world.credentials.accessToken(forUserId: "carol")
        let client = ChatClient(configuration: world.clientConfiguration())
        #expect(try await client.connect(userId: "carol", accessToken: access).id == "carol")
        let conversation = try await client.startConversation()
        let message = try await client.sendMessage(.text("hi"), in: conversation.id)
        await world.settle()
        #expect(try await client.message(withId: message.id)?.state == .sent)
    }
}
