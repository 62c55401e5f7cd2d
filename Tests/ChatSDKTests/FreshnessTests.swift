import ChatSDK
import ChatSimulation
import Testing

/// D1's freshness contract, D5's opening by id and read receipts, and the
/// one source of message states.
@Suite struct FreshnessTests {
    func signedIn() throws -> Fixture {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        return f
    }

    @Test func aLostConnectionMakesTheSameDataNotFreshUntilReconnected() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.last?.isDataFresh == true)
        f.world.network.setOnline(false)
        f.world.runUntilIdle()
        #expect(watcher.last?.isDataFresh == false)
        #expect(watcher.last?.data.elements.count == 1, "the same data")
        _ = try f.world.backend.agentSay(conversationId: conversation.id, text: "while you were away")
        f.world.advance(by: .seconds(600))
        #expect(watcher.last?.isDataFresh == false)
        f.world.network.setOnline(true)
        f.world.settle()
        #expect(watcher.last?.isDataFresh == true)
        #expect(watcher.last?.data.elements.count == 2)
    }

    /// An anonymous user who sets their user, as with a login, leaves
    /// nothing behind (their watchers end) and the new session gets a
    /// realtime link of its own. The anonymous session's link used to stay
    /// open, carrying the anonymous user's events, while the new user's
    /// watcher said fresh and missed what the agent said; and the anonymous
    /// user's watcher went on showing alice's data (examples/34).
    @Test func anAnonymousUserWhoSetsTheirUserGetsTheirOwnLink() throws {
        let f = try Fixture()
        _ = try f.call { try await f.client.loginAnonymous() }
        let anonymous = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(try f.call { await f.client.connectionState } == .connected)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        #expect(anonymous.error?.code == .userCleared)
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        _ = try f.world.backend.agentSay(conversationId: conversation.id, text: "hello alice")
        f.world.runUntilIdle()
        #expect(items.last?.data.elements.count == 2)
        #expect(items.last?.isDataFresh == true)
        #expect(anonymous.all.allSatisfy { $0.data.elements.isEmpty }, "nothing of alice's reached the anonymous user's watcher")
    }

    @Test func theConnectionSaysWhyItIsDown() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        f.world.network.setOnline(false)
        f.world.runUntilIdle()
        #expect(try f.call { await f.client.connectionState } == .waitingForNetwork(.offline))
        f.world.network.setOnline(true)
        f.world.runUntilIdle()
        f.world.network.dropAll()
        f.world.runUntilIdle()
        #expect(try f.call { await f.client.connectionState } == .waitingForNetwork(.closedByServer("connection dropped")))
    }

    @Test func messageStatesArePublishedOnceEachInOrder() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        f.world.runUntilIdle()
        let states = f.events.withLock { events in
            events.compactMap { event -> String? in
                if case .messageStateChanged(let message) = event { return message.state.name }
                return nil
            }
        }
        #expect(states == ["toBeSent", "sending", "sent"])
    }

    @Test func aConversationNotOnTheDeviceIsFetchedFromTheServer() throws {
        let phone = try signedIn()
        let conversation = try phone.call { try await phone.client.startConversation() }
        try phone.call { try await phone.client.sendMessage(.text("hi"), in: conversation.id) }
        // The same user on a second device of the same world.
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: phone.world.makeTransport(), runtime: phone.world)
        configuration.cacheMode = .memory
        configuration.deviceId = "device-2"
        let tablet = ChatClient(configuration: configuration, tokenProvider: phone.provider)
        _ = phone.world.run { try await tablet.setCurrentUser(userId: "alice") }
        let watcher = Collected(tablet.watchItems(ofConversationWithId: conversation.id), in: phone.world)
        let unknown = Collected(tablet.watchItems(ofConversationWithId: "c-00000000"), in: phone.world)
        phone.world.runUntilIdle()
        #expect(watcher.last?.data.elements.count == 1)
        #expect(watcher.last?.isDataFresh == true)
        #expect(unknown.error?.code == .unknownConversation)
    }

    @Test func aProviderReadShowsOnTheMessagesItCovers() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.first?.isReadByProvider == false)
        try f.world.backend.agentRead(conversationId: conversation.id)
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.first?.isReadByProvider == true)
        try f.call { try await f.client.sendMessage(.text("two"), in: conversation.id) }
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.map(\.isReadByProvider) == [false, true])
    }
}
