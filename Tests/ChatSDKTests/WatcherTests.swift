import ChatSDK
import ChatSimulation
import Testing

@Suite struct WatcherTests {
    func signedIn() throws -> Fixture {
        let f = try Fixture(pageSize: 5)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        return f
    }

    @Test func cachedDataFirstThenTheServers() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        let states = watcher.all.map { "\($0.isDataFresh) \($0.refreshingState.name) \($0.data.elements.count)" }
        #expect(states == ["false refreshing 1", "true refreshed 1"])
    }

    @Test func aFailedRefreshKeepsThePreviousData() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        f.world.network.setOnline(false)
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        let last = try #require(watcher.last)
        #expect(last.isDataFresh == false)
        #expect(last.refreshingState == .failed(ChatError(.offline, "The device is offline")))
        #expect(last.data.elements.count == 1)
        #expect(watcher.error == nil, "the watcher stays alive")
    }

    @Test func noCacheAndAFailedFetchEndsTheWatcher() throws {
        let f = try signedIn()
        f.world.network.failNext(1)
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.all.isEmpty)
        #expect(watcher.error?.code == .networkFailure)
    }

    @Test func paginationLoadsOlderPagesAndEndsWithNil() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("first"), in: conversation.id) }
        for i in 1...11 { try f.world.backend.agentSay(conversationId: conversation.id, text: "a\(i)") }
        f.world.runUntilIdle()
        // A second client of the same user sees the server's pages.
        let other = try Fixture(pageSize: 5)
        _ = other
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.count == 5)
        #expect(watcher.last?.data.elements.first?.preview == "a11")
        var pages = 1
        while let loadMore = watcher.last?.data.loadMore {
            try f.call { try await loadMore() }
            pages += 1
        }
        #expect(pages == 3)
        #expect(watcher.last?.data.elements.count == 12)
        #expect(watcher.last?.data.elements.last?.preview == "first")
    }

    @Test func aFailedLoadMoreThrowsButKeepsTheWatcher() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("first"), in: conversation.id) }
        for i in 1...11 { try f.world.backend.agentSay(conversationId: conversation.id, text: "a\(i)") }
        let fresh = try Fixture(pageSize: 5)
        _ = fresh
        try f.call { await f.client.clearCurrentUser() }
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let list = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(list.last?.data.elements.count == 1)
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        let loadMore = try #require(watcher.last?.data.loadMore)
        f.world.network.failNext(1)
        #expect(chatError { try f.call { try await loadMore() } }?.code == .networkFailure)
        #expect(watcher.error == nil)
        try f.call { try await loadMore() }
        #expect(watcher.last?.data.elements.count == 10)
    }

    @Test func localFirstConversationAndItsStates() throws {
        let f = try signedIn()
        let conversations = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        let conversation = try f.call { try await f.client.startConversation(title: "Knee") }
        #expect(conversation.isLocal)
        #expect(conversations.last?.data.elements.map(\.id) == [conversation.id])
        #expect(f.world.backend.conversations(userId: "alice").isEmpty)
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        let message = try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let states = items.all.compactMap { $0.data.elements.first(where: { $0.id == message.id })?.state.name }
        // The states it went through; a watcher may emit one of them again
        // when only its freshness changes (the connection coming up).
        let transitions = states.enumerated().filter { $0.offset == 0 || states[$0.offset - 1] != $0.element }.map(\.element)
        #expect(transitions == ["toBeSent", "sending", "sent"])
        #expect(f.world.backend.conversations(userId: "alice").map(\.id) == [conversation.id])
        #expect(try f.call { try await f.client.conversation(withId: conversation.id) }?.isLocal == false)
    }

    @Test func aFailedCreationFailsThePendingMessagesAndRetryDoesNotDuplicate() throws {
        // Without automatic resending, a request lost on the way fails it (D7).
        let f = try Fixture(autoResend: false)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        f.world.network.failNext(1)
        let first = try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        #expect(try f.call { try await f.client.message(withId: first.id) }?.state.name == "failed")
        try f.call { try await f.client.retrySending(itemId: first.id) }
        #expect(try f.call { try await f.client.message(withId: first.id) }?.state == .sent)
        #expect(try f.world.backend.messages(conversationId: conversation.id).map(\.id) == [first.id])
        #expect(chatError { try f.call { try await f.client.retrySending(itemId: first.id) } }?.code == .notRetryable)
    }

    @Test func theOtherSideReachesWatchersThroughRealtime() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        let requests = f.world.network.requestCount
        try f.world.backend.agentSay(conversationId: conversation.id, text: "hello")
        f.world.runUntilIdle()
        #expect(items.last?.data.elements.map(\.preview) == ["hello", "hi"])
        #expect(f.world.network.requestCount == requests, "no polling")
    }

    @Test func afterACutTheClientReconnectsAndCatchesUp() throws {
        let f = try signedIn()
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        f.world.network.dropAll()
        f.world.runUntilIdle()
        for i in 1...100 { try f.world.backend.agentSay(conversationId: conversation.id, text: "m\(i)") }
        f.world.advance(by: .seconds(2))
        let shown = try #require(items.last?.data.elements)
        #expect(shown.first?.preview == "m100")
        #expect(try f.call { await f.client.connectionState } == .connected)
        let all = try f.world.backend.messages(conversationId: conversation.id)
        #expect(all.count == 101)
    }
}
