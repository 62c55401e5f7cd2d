import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@Suite struct DataLayerTests {
    /// A client on disk in a fresh folder.
    final class DiskApp: @unchecked Sendable {
        // Used only on the test's thread, which also pumps the world.
        let world: World
        let folder: String
        let provider: SimulatedTokenProvider
        var client: ChatClient
        let warnings = Locked<[String]>([])

        init(autoResend: Bool = true) throws {
            world = try World(seed: 3)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("disk-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            provider = SimulatedTokenProvider(world: world)
            client = DiskApp.launch(world, folder, provider, autoResend, warnings)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        static func launch(
            _ world: World, _ folder: String, _ provider: SimulatedTokenProvider, _ autoResend: Bool, _ warnings: Locked<[String]>
        ) -> ChatClient {
            var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
            configuration.cacheDirectory = folder
            configuration.autoResend = autoResend
            let client = ChatClient(configuration: configuration, tokenProvider: provider)
            let events = client.events()
            world.spawn {
                for await event in events { if case .warning(let text) = event { warnings.withLock { $0.append(text) } } }
            }
            world.runUntilIdle()
            return client
        }

        @discardableResult
        func call<T: Sendable>(_ operation: @escaping @Sendable (ChatClient) async throws -> T) throws -> T {
            let client = self.client
            guard let result = world.run({ try await operation(client) }) else { throw Fixture.StillPending() }
            return try result.get()
        }

        func restart(signIn user: String = "alice") throws {
            try call { await $0.shutdown() }
            client = DiskApp.launch(world, folder, provider, true, warnings)
            try call { try await $0.setCurrentUser(userId: user) }
        }
    }

    @Test func theDiskCacheAnswersAfterARestartAndOffline() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation(title: "Rash") }
        try app.call { try await $0.sendMessage(.text("it itches"), in: conversation.id) }
        try app.restart()
        app.world.network.setOnline(false)
        let items = Collected(app.client.watchItems(ofConversationWithId: conversation.id), in: app.world)
        app.world.runUntilIdle()
        #expect(items.all.first?.isDataFresh == false)
        #expect(items.all.first?.data.elements.map(\.preview) == ["it itches"])
        #expect(items.error == nil)
    }

    /// The conversation's id was taken on the server by another user: the
    /// server creates it under an id of its own, and the app keeps using
    /// the one it chose, after a restart too (issue 13, item 10).
    @Test func aConversationWhoseIdWasTakenKeepsTheAppsIdOverTheServers() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation(title: "mine") }
        let bob = try app.world.backend.issueTokens(apiKey: World.apiKey, userId: "bob")
        let squat = WireRequest.sendMessage(
            conversationId: conversation.id, createConversation: NewConversation(title: nil),
            message: NewMessage(id: "m-bob", content: .text("squatting"), replyTo: nil))
        _ = try app.world.backend.handle(
            WireEnvelope(apiKey: World.apiKey, accessToken: bob.accessToken, deviceId: "bob-phone", request: squat)
        ).get()
        let sent = try app.call { try await $0.sendMessage(.text("hello"), in: conversation.id) }
        app.world.runUntilIdle()
        let delivered = try app.call { try await $0.message(withId: sent.id) }
        #expect(delivered?.state == .sent)
        #expect(delivered?.conversationId == conversation.id)
        let serverId = app.client.serverId(ofConversation: conversation.id)
        #expect(serverId != conversation.id)
        #expect(try app.world.backend.messages(conversationId: serverId).map(\.id) == [sent.id])
        #expect(try app.world.backend.messages(conversationId: conversation.id).map(\.id) == ["m-bob"])
        // The provider answers in the server's conversation; the app sees it in its own.
        _ = try app.world.backend.agentSay(conversationId: serverId, text: "hi alice")
        app.world.runUntilIdle()
        try app.restart()
        #expect(app.client.serverId(ofConversation: conversation.id) == serverId)
        let items = Collected(app.client.watchItems(ofConversationWithId: conversation.id), in: app.world)
        let list = Collected(app.client.watchConversations(), in: app.world)
        app.world.runUntilIdle()
        #expect(items.last?.isDataFresh == true)
        #expect(items.last?.data.elements.map(\.preview) == ["hi alice", "hello"])
        #expect(list.last?.data.elements.map(\.id) == [conversation.id])
        _ = try app.call { try await $0.sendMessage(.text("again"), in: conversation.id) }
        app.world.runUntilIdle()
        #expect(try app.world.backend.messages(conversationId: serverId).count == 3)
    }

    @Test func usersNeverSeeEachOthersData() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation(title: "private") }
        try app.call { try await $0.sendMessage(.text("secret"), in: conversation.id) }
        let aliceFile = try #require(app.client.configuration.cacheFile(forUserId: "alice"))
        #expect(FileManager.default.fileExists(atPath: aliceFile))
        try app.call { await $0.clearCurrentUser() }
        #expect(!FileManager.default.fileExists(atPath: aliceFile), "clearing deletes the user's cache")
        try app.call { try await $0.setCurrentUser(userId: "bob") }
        let list = Collected(app.client.watchConversations(), in: app.world)
        app.world.runUntilIdle()
        #expect(list.last?.data.elements.isEmpty == true)
        #expect(try app.call { try await $0.conversation(withId: conversation.id) } == nil)
        // A message id of alice's is unknown to bob.
        #expect(chatError { try app.call { try await $0.retrySending(itemId: "m-anything") } }?.code == .unknownMessage)
    }

    @Test(arguments: ["garbage", "foreign"])
    func anUnusableCacheFileIsAWarningNotACrash(kind: String) throws {
        let app = try DiskApp()
        let file = try #require(app.client.configuration.cacheFile(forUserId: "alice"))
        if kind == "garbage" {
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 7, count: 2048))
        } else {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", "-c", "import sqlite3; c = sqlite3.connect('\(file)'); c.execute('create table notes(x)'); c.commit()",
            ]
            try process.run()
            _ = try process.waitForExit()
        }
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        try app.call { try await $0.sendMessage(.text("still works"), in: conversation.id) }
        #expect(try app.world.backend.messages(conversationId: conversation.id).count == 1)
        #expect(app.warnings.withLock { $0 }.count == 1)
        #expect(app.warnings.withLock { $0 }.first?.contains("carrying on without a disk cache") == true)
    }

    /// A read or write the cache cannot make (another process holds the
    /// file's lock) is a warning event naming it, never silent.
    @Test func aFailedCacheWriteIsAWarning() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        let file = try #require(app.client.configuration.cacheFile(forUserId: "alice"))
        var holder = Configuration()
        holder.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: file, configuration: holder)
        try other.inDatabase { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        _ = try? app.call { try await $0.sendMessage(.text("locked out"), in: conversation.id) }
        try other.inDatabase { try $0.execute(sql: "ROLLBACK") }
        let warnings = app.warnings.withLock { $0 }
        #expect(warnings.contains { $0.hasPrefix("the cache could not ") && $0.contains("locked") }, "\(warnings)")
        // Once the lock is gone, the cache works again.
        try app.call { try await $0.sendMessage(.text("back"), in: conversation.id) }
        #expect(try app.world.backend.messages(conversationId: conversation.id).map(\.content) == [.text("back")])
    }

    @Test func withoutAutoResendAnOfflineSendFailsAtOnce() throws {
        let app = try DiskApp(autoResend: false)
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.setOnline(false)
        let message = try app.call { try await $0.sendMessage(.text("nope"), in: conversation.id) }
        #expect(try app.call { try await $0.message(withId: message.id) }?.state == .failed(ChatError(.offline, "The device is offline")))
    }

    /// D7: every kind of failure a real transport produces leaves the
    /// message `toBeSent`; the queue backs off and goes again by itself, in
    /// order, with nothing failed and nothing sent twice.
    @Test(arguments: FailureKind.allCases)
    func aRetryableFailureStaysToBeSentAndGoesOutInOrder(kind: FailureKind) throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.failNext(2, kind: kind)
        let ids = try (1...3).map { i in try app.call { try await $0.sendMessage(.text("\(i)"), in: conversation.id) }.id }
        app.world.runUntilIdle()
        let states = try ids.map { id in try app.call { try await $0.message(withId: id) }?.state }
        #expect(states.allSatisfy { $0 != nil && $0?.name != "failed" }, "\(states)")
        if kind != .timeout {
            #expect(states[0] == .toBeSent, "it waits for its back-off")
        }
        app.world.advance(by: .seconds(10))
        #expect(try app.world.backend.messages(conversationId: conversation.id).map(\.id) == ids)
        for id in ids { #expect(try app.call { try await $0.message(withId: id) }?.state == .sent) }
    }

    @Test func withoutAutoResendARetryableFailureFailsWithTheReason() throws {
        let app = try DiskApp(autoResend: false)
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.failNext(1, kind: .refused)
        let message = try app.call { try await $0.sendMessage(.text("nope"), in: conversation.id) }
        app.world.runUntilIdle()
        #expect(
            try app.call { try await $0.message(withId: message.id) }?.state
                == .failed(ChatError(.networkFailure, "Connection refused (net fail)")))
    }

    /// D7: the app says the network went: nothing is tried; back, it goes
    /// at once, also what was backing off.
    @Test func theAppTellsTheSDKThatTheNetworkWentAndCameBack() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        _ = try app.call { try await $0.sendMessage(.text("first"), in: conversation.id) }
        app.world.runUntilIdle()
        try app.call { await $0.networkReachabilityChanged(false) }
        let requests = app.world.network.requestCount
        let offline = try app.call { try await $0.sendMessage(.text("offline"), in: conversation.id) }
        app.world.runUntilIdle()
        #expect(app.world.network.requestCount == requests, "no request while the app says offline")
        #expect(try app.call { try await $0.message(withId: offline.id) }?.state == .toBeSent)
        try app.call { await $0.networkReachabilityChanged(true) }
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: offline.id) }?.state == .sent)
        // Backing off after a failure, the app's word sends it now.
        app.world.network.failNext(1, kind: .unavailable)
        let later = try app.call { try await $0.sendMessage(.text("later"), in: conversation.id) }
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: later.id) }?.state == .toBeSent)
        try app.call { await $0.networkReachabilityChanged(true) }
        app.world.runUntilIdle()
        #expect(try app.call { try await $0.message(withId: later.id) }?.state == .sent)
    }

    @Test func offlineMessagesGoOutInOrderWhenTheNetworkReturns() throws {
        let app = try DiskApp()
        try app.call { try await $0.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await $0.startConversation() }
        app.world.network.setOnline(false)
        let ids = try (1...5).map { i in try app.call { try await $0.sendMessage(.text("\(i)"), in: conversation.id) }.id }
        #expect(try app.call { try await $0.message(withId: ids[0]) }?.state == .toBeSent)
        try app.restart()
        app.world.network.setOnline(true)
        app.world.runUntilIdle()
        #expect(try app.world.backend.messages(conversationId: conversation.id).map(\.id) == ids)
    }

    @Test func aFailedCreationFailsEveryPendingMessage() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        // The server refuses to create it (a final failure, D7).
        let conversation = try f.call { try await f.client.startConversation(title: String(repeating: "t", count: 1_001)) }
        _ = Collected(f.client.watchConversations(), in: f.world)
        f.world.runUntilIdle()
        f.world.network.setLatency(.milliseconds(100))
        let (a, b) = try f.call {
            (
                try await f.client.sendMessage(.text("a"), in: conversation.id),
                try await f.client.sendMessage(.text("b"), in: conversation.id)
            )
        }
        f.world.runUntilIdle()
        #expect(try f.call { try await f.client.message(withId: a.id) }?.state.name == "failed")
        #expect(try f.call { try await f.client.message(withId: b.id) }?.state.name == "failed")
        #expect(chatError { try f.call { try await f.client.sendMessage(.text("x"), in: "c-unknown") } }?.code == .unknownConversation)
    }

    @Test func providerTypingShowsAndExpires() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let details = Collected(f.client.watchConversation(withId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        try f.world.backend.agentTyping(conversationId: conversation.id, isTyping: true)
        f.world.runUntilIdle()
        #expect(details.last?.data.providerTyping == true)
        f.world.advance(by: .seconds(7))
        #expect(details.last?.data.providerTyping == false)
    }

    @Test func theUsersTypingIsRenewedWhileOn() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let before = f.world.network.requestCount
        try f.call { try await f.client.setIsTyping(true, in: conversation.id) }
        f.world.advance(by: .seconds(9))
        #expect(f.world.network.requestCount - before == 3, "one, then a renewal every 4 s")
        try f.call { try await f.client.setIsTyping(false, in: conversation.id) }
        f.world.advance(by: .seconds(9))
        #expect(f.world.network.requestCount - before == 4)
    }

    /// A new session (here the same user set again after the server
    /// closed the session) stops the previous session's typing renewals:
    /// they would otherwise ask for tokens of the new session to say the
    /// old one's user is typing.
    @Test func aNewSessionStopsThePreviousSessionsTypingRenewals() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        try f.call { try await f.client.setIsTyping(true, in: conversation.id) }
        f.world.backend.revokeTokens(userId: "alice")
        f.world.advance(by: .seconds(5))
        #expect(f.sessionStates.last == .closed(reason: "invalidToken"), "the renewal found the session closed")
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let before = (f.world.network.requestCount, f.provider.calls)
        f.world.advance(by: .seconds(20))
        #expect(f.world.network.requestCount == before.0 && f.provider.calls == before.1, "no renewal of the closed session")
    }

    @Test func backgroundClosesTheConnectionAndForegroundRefetches() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        try f.call { try await f.client.sendMessage(.text("hi"), in: conversation.id) }
        let items = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.runUntilIdle()
        try f.call { await f.client.applicationDidEnterBackground() }
        #expect(try f.call { await f.client.connectionState } == .disconnected)
        try f.world.backend.agentSay(conversationId: conversation.id, text: "back?")
        f.world.advance(by: .seconds(60))
        #expect(items.last?.data.elements.count == 1, "no connection in the background")
        try f.call { await f.client.applicationWillEnterForeground() }
        #expect(items.last?.data.elements.count == 2)
        #expect(items.last?.isDataFresh == true)
    }

    @Test func severalWatchersOfTheSameDataAgree() throws {
        let f = try Fixture()
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation() }
        let watchers = (0..<3).map { _ in Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world) }
        f.world.runUntilIdle()
        for i in 0..<5 { try f.call { try await f.client.sendMessage(.text("\(i)"), in: conversation.id) } }
        try f.world.backend.agentSay(conversationId: conversation.id, text: "ok")
        f.world.runUntilIdle()
        let views = watchers.map { $0.last?.data.elements.map(\.id) ?? [] }
        #expect(views.allSatisfy { $0 == views[0] })
        #expect(views[0].count == 6)
    }
}
