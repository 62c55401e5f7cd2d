import ChatSDK
import ChatSimulation
import ChatTestSupport
import Testing

@Suite struct SessionTests {
    @Test func userScopedCallsBeforeSignInFailWithNotAuthenticated() throws {
        let f = try Fixture()
        #expect(chatError { try f.call { try await f.client.startConversation() } }?.code == .notAuthenticated)
        #expect(chatError { try f.call { try await f.client.sendMessage(.text("hi"), in: "c-x") } }?.code == .notAuthenticated)
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.error?.code == .notAuthenticated)
        #expect(f.world.network.requestCount == 0)
    }

    @Test func theProviderIsCalledLazilyAndOnce() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        #expect(f.provider.calls == 0)
        #expect(f.world.network.requestCount == 0)
        #expect(f.sessionStates == [.userSet(userId: "alice")])
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(f.provider.calls == 1)
        #expect(watcher.last?.isDataFresh == true)
        #expect(
            f.sessionStates == [.userSet(userId: "alice"), .authenticating(userId: "alice"), .authenticated(userId: "alice", via: .tokens)])
    }

    @Test func concurrentNeedsMakeOneProviderCall() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        f.provider.mode = .delay(.seconds(2))
        let watchers = (0..<10).map { _ in Collected(f.client.watchConversations(), in: f.world) }
        f.world.runUntilIdle()
        #expect(f.provider.calls == 1)
        #expect(watchers.allSatisfy { $0.last?.isDataFresh == true })
    }

    /// A call in flight when the user is cleared fails with `userCleared`,
    /// whatever comes back for it: the session forgot its id (issue 14).
    @Test(arguments: [false, true])
    func aCallInFlightAcrossAClearFailsWithUserCleared(setAgain: Bool) throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        f.provider.mode = .delay(.seconds(2))
        let failure = Locked<ChatError?>(nil)
        f.world.spawn {
            do { _ = try await f.client.updateCurrentUserInfo(nickname: "Al", profileURL: nil) } catch {
                failure.withLock { $0 = error as? ChatError }
            }
        }
        let world = f.world
        try f.call {
            try await world.sleep(for: .seconds(1), kind: .inFlight("the app clears its user"))
            await f.client.clearCurrentUser()
            if setAgain { try await f.client.setCurrentUser(userId: "alice") }
        }
        f.world.runUntilIdle()
        #expect(failure.withLock { $0 }?.code == .userCleared)
        #expect(f.provider.calls == 1)
        #expect(f.sessionStates.last == (setAgain ? .userSet(userId: "alice") : .signedOut))
        #expect(f.world.network.requestCount == 0, "nothing was sent for the cleared user")
    }

    @Test func anExpiredAccessTokenIsRefreshedAndTheRequestReplayedOnce() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        f.world.backend.expireAccessTokens(userId: "alice")
        let before = f.world.network.requestCount
        try f.call { try await f.client.sendMessage(.text("two"), in: conversation.id) }
        // send (expiredToken) + refresh + send again
        #expect(f.world.network.requestCount - before == 3)
        #expect(f.provider.calls == 1)
        #expect(try f.world.backend.messages(conversationId: conversation.id).count == 2)
        #expect(f.sessionStates.suffix(2) == [.refreshing(userId: "alice"), .authenticated(userId: "alice", via: .tokens)])
    }

    @Test func theSDKRefreshesALittleBeforeExpiry() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        _ = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        let before = f.world.network.requestCount
        f.world.advance(by: .seconds(3600 - 31))
        #expect(f.world.network.requestCount == before)
        f.world.advance(by: .seconds(2))
        #expect(f.world.network.requestCount == before + 1)
        #expect(f.provider.calls == 1)
    }

    @Test func aRevokedRefreshTokenAsksTheProviderAgain() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("one"), in: conversation.id) }
        f.world.advance(by: .seconds(10))
        f.world.backend.revokeTokens(userId: "alice")
        // The access token is now invalid (not expired): the session closes, no loop.
        let error = chatError { try f.call { try await f.client.sendMessage(.text("two"), in: conversation.id) } }
        #expect(error == nil, "sendMessage returns at once; the failure shows on the message")
        f.world.runUntilIdle()
        #expect(f.sessionStates.last == .closed(reason: "invalidToken"))
        #expect(f.provider.calls == 1)
    }

    @Test(arguments: [
        (SimulatedTokenProvider.Mode.fail, ChatError.Code.providerFailed),
        (.malformed, .malformedTokens),
        (.expired, .expiredTokens),
        (.delay(.seconds(60)), .providerTimeout),
    ])
    func aMisbehavingProviderGivesADistinctError(mode: SimulatedTokenProvider.Mode, code: ChatError.Code) throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        f.provider.mode = mode
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(watcher.error?.code == code)
        #expect(f.sessionStates.last == .needsCredentials(userId: "alice", reason: code.rawValue))
        // The next need asks again and, with a well-behaved provider, succeeds.
        f.provider.mode = .ok
        let again = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(again.last?.isDataFresh == true)
    }

    /// A provider that cannot reach the app's backend (refused: the
    /// server is down, the device offline) fails as the network fails (D7,
    /// issue 25): the message waits `toBeSent`, the session is not asking
    /// the app for credentials, and the message goes by itself, without a
    /// retry, once the backend answers. (It used to fail `providerFailed`
    /// for good: an app whose provider asked a server that was down lost
    /// every message sent meanwhile.)
    @Test func aProviderThatCannotReachItsBackendLeavesTheMessageToBeSent() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        f.provider.mode = .unreachable
        let message = try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        f.world.runUntilIdle()
        #expect(try f.call { try await f.client.message(withId: message.id)?.state } == .toBeSent)
        #expect(f.sessionStates.last == .userSet(userId: "alice"))
        #expect(!f.sessionStates.contains { if case .needsCredentials = $0 { true } else { false } })
        f.provider.mode = .ok
        f.world.advance(by: .seconds(60))
        #expect(try f.call { try await f.client.message(withId: message.id)?.state } == .sent)
        #expect(try f.world.backend.messages(conversationId: conversation.id).map(\.id) == [message.id])
    }

    @Test func switchingUsers() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        _ = try f.call { try await f.client.startConversation() }
        let requests = f.world.network.requestCount
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        #expect(f.world.network.requestCount == requests, "the same user again makes no request")
        #expect(chatError { try f.call { try await f.client.setCurrentUser(userId: "bob") } }?.code == .currentUserAlreadySet)
        try f.call { await f.client.clearCurrentUser() }
        try f.call { try await f.client.setCurrentUser(userId: "bob") }
        #expect(try f.call { await f.client.currentUserId } == "bob")
    }

    @Test func clearingEndsWatchersAndForgetsEverything() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("secret"), in: conversation.id) }
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        try f.call { await f.client.clearCurrentUser() }
        #expect(watcher.error?.code == .userCleared)
        #expect(try f.call { await f.client.connectionState } == .disconnected)
        try f.call { try await f.client.setCurrentUser(userId: "bob") }
        #expect(try f.call { try await f.client.conversation(withId: conversation.id) } == nil, "nothing of alice is left")
        let bobs = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        #expect(bobs.last?.data.elements.isEmpty == true)
    }

    @Test func anUnknownApiKeyFailsEveryRequest() throws {
        let f = try Fixture(apiKey: "nope")
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let watcher = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        // The provider (the app's backend) refuses to mint tokens for an unknown key.
        #expect(watcher.error != nil)
    }
}
