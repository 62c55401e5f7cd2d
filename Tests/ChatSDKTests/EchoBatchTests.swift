import ChatCore
import ChatSimulation
import ChatTestSupport
import GRDB
import Testing

@testable import ChatSDK

/// The batch of a pushed event, while a send's answer is awaited, is
/// committed with the answer (issue 17): one commit for a send's outcome
/// and its echoes, and never a cursor on disk without the rows it covers.
@Suite struct EchoBatchTests {
    struct Cache {
        let folder: TemporaryFolder
        let store: LocalStore
        let reader: DatabaseQueue
        let commits = Locked(0)

        init() throws {
            folder = try TemporaryFolder()
            let path = folder.url.appendingPathComponent("cache.sqlite").path
            store = try LocalStore(path: path)
            reader = try DatabaseQueue(path: path)
            let commits = self.commits
            store.observeCommits { commits.withLock { $0 += 1 } }
        }

        /// What another connection (the disk) sees.
        func onDisk() throws -> (state: String?, cursor: String?) {
            try reader.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT state FROM message WHERE id = 'm-1'"),
                    try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'userSeq'")
                )
            }
        }

        func row(_ state: SendState.Kind, seq: Int64? = nil) -> MessageRow {
            MessageRow(
                id: "m-1", conversationId: "c-1", seq: seq, localOrder: 1, author: .user(id: "alice"), content: .text("hi"),
                replyTo: nil, createdAt: 0, state: state, errorCode: nil, errorMessage: nil)
        }

        /// An event: its cursor lazily, its row in an echo batch.
        func echo(_ row: MessageRow, cursor: Int) {
            store.setMeta("userSeq", String(cursor), lazily: true)
            store.batch(echo: true) { store.upsert(row) }
        }
    }

    @Test func anEchoWhileAnAnswerIsAwaitedIsCommittedWithTheAnswer() throws {
        let cache = try Cache()
        cache.store.batch { cache.store.upsert(cache.row(.toBeSent)) }
        #expect(cache.commits.withLock { $0 } == 1)
        cache.store.awaitAnswer()
        cache.echo(cache.row(.sent, seq: 1), cursor: 7)
        // This connection reads what it wrote; the disk has neither the row
        // nor the cursor yet.
        #expect(cache.store.message(id: "m-1")?.state == .sent)
        #expect(cache.store.meta("userSeq") == "7")
        #expect(try cache.onDisk().state == "toBeSent")
        #expect(try cache.onDisk().cursor == nil)
        #expect(cache.commits.withLock { $0 } == 1)
        // The answer's batch (the same rows: nothing to write) commits both.
        cache.store.batch { cache.store.upsert(cache.row(.sent, seq: 1)) }
        cache.store.answerArrived()
        #expect(try cache.onDisk().state == "sent")
        #expect(try cache.onDisk().cursor == "7")
        #expect(cache.commits.withLock { $0 } == 2)
    }

    @Test func anAnswerThatNeverComesStillCommitsWhatWasHeld() throws {
        let cache = try Cache()
        cache.store.awaitAnswer()
        cache.echo(cache.row(.sent, seq: 1), cursor: 3)
        #expect(try cache.onDisk().state == nil)
        // The request failed, or its user went: nothing else is written.
        cache.store.answerArrived()
        #expect(try cache.onDisk().state == "sent")
        #expect(try cache.onDisk().cursor == "3")
        #expect(cache.commits.withLock { $0 } == 1)
    }

    @Test func withNoAnswerAwaitedAnEchoCommitsAtOnce() throws {
        let cache = try Cache()
        cache.echo(cache.row(.sent, seq: 1), cursor: 1)
        #expect(try cache.onDisk().state == "sent")
        #expect(try cache.onDisk().cursor == "1")
        #expect(cache.commits.withLock { $0 } == 1)
    }

    @Test func aWriteOutsideABatchCommitsWhatIsHeldFirst() throws {
        let cache = try Cache()
        cache.store.awaitAnswer()
        cache.echo(cache.row(.sent, seq: 1), cursor: 2)
        cache.store.addConversationAlias(localId: "c-1", serverId: "c-9")
        #expect(try cache.onDisk().state == "sent")
        #expect(try cache.reader.read { try String.fetchOne($0, sql: "SELECT serverId FROM conversationAlias") } == "c-9")
        cache.store.addPendingLogout(accessToken: "t")
        #expect(cache.store.pendingLogouts() == ["t"])
        cache.store.answerArrived()
        #expect(cache.commits.withLock { $0 } == 3)
    }

    @Test func aWipeWhileAnAnswerIsAwaitedEmptiesTheCache() throws {
        let cache = try Cache()
        cache.store.awaitAnswer()
        cache.echo(cache.row(.sent, seq: 1), cursor: 2)
        cache.store.wipe()
        #expect(cache.store.message(id: "m-1") == nil)
        #expect(try cache.onDisk().state == nil)
        #expect(try cache.onDisk().cursor == nil)
        cache.store.answerArrived()
        #expect(try cache.onDisk().state == nil)
    }

    @Test func aStoreThatGoesCommitsWhatIsHeld() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        do {
            let store = try LocalStore(path: path)
            store.awaitAnswer()
            store.setMeta("userSeq", "5", lazily: true)
            store.batch(echo: true) { store.setMeta("other", "x") }
        }
        let reader = try DatabaseQueue(path: path)
        #expect(try reader.read { try String.fetchAll($0, sql: "SELECT value FROM meta ORDER BY key") } == ["x", "5"])
    }
}

/// The same, through a client: the echo of a message whose answer is
/// still awaited waits for it, and a shutdown writes it.
@Suite struct EchoBatchClientTests {
    @Test func theEchoOfAMessageWaitsForItsAnswerAndAShutdownWritesIt() throws {
        let world = try World(seed: 1)
        let folder = try TemporaryFolder()
        let transport = HeldAnswers(world.makeTransport())
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: transport, runtime: world)
        configuration.cacheDirectory = folder.url.path
        configuration.deviceId = "device-1"
        let client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        func call<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
            guard let result = world.run(operation) else { throw Fixture.StillPending() }
            return try result.get()
        }
        try call { try await client.setCurrentUser(userId: "alice") }
        let conversation = try call { try await client.startConversation(title: nil) }
        _ = try call { try await client.sendMessage(.text("first"), in: conversation.id) }
        world.runUntilIdle()
        transport.release()
        world.runUntilIdle()

        let second = try call { try await client.sendMessage(.text("second"), in: conversation.id) }
        world.runUntilIdle()
        // The server has it, and its events came: the client shows it sent.
        let shown = try call { try await client.conversation(withId: conversation.id) }
        #expect(shown?.messageCount == 2)
        let reader = try DatabaseQueue(path: LocalStore.path(in: folder.url.path, deviceId: "device-1", userId: "alice"))
        let onDisk = { try reader.read { try String.fetchOne($0, sql: "SELECT state FROM message WHERE id = ?", arguments: [second.id]) } }
        // On disk it is what it was before its answer: the events wait for it.
        #expect(try onDisk() == "toBeSent")
        try call { await client.shutdown() }
        #expect(try onDisk() == "sent")
        transport.release()
        world.runUntilIdle()
    }
}
