import ChatSimulation
import ChatTestSupport
import GRDB
import Testing

@testable import ChatSDK

/// What a send costs the cache on disk (issue 17): the message appears (one
/// commit) and its outcome (one). `sending` is not written; the realtime
/// events that echo the message write nothing after the answer, and before
/// it their rows and cursor are committed with the answer's. Before
/// batching, 7.6.
@Suite struct CacheCommitTests {
    @Test func aSendCommitsTwice() throws {
        let app = try Fixture()
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        let conversation = try app.call { try await client.startConversation(title: nil) }
        try app.call { try await client.sendMessage(.text("first"), in: conversation.id) }
        app.world.runUntilIdle()
        let store = try app.call { await client.core.store }
        let commits = Locked(0)
        store.observeCommits { commits.withLock { $0 += 1 } }
        for index in 1...10 {
            try app.call { try await client.sendMessage(.text("message \(index)"), in: conversation.id) }
            app.world.runUntilIdle()
        }
        let messages = try app.call { try await client.conversation(withId: conversation.id) }
        #expect(messages?.messageCount == 11)
        #expect(commits.withLock { $0 } == 20, "\(commits.withLock { $0 }) commits for 10 sends")
    }

    /// A commit writes a page per B-tree its rows touch. A message's new
    /// state is written in place (INSERT OR REPLACE deleted the row and
    /// inserted it again, with every index entry: its rowid changed), and
    /// messages have one index of their own besides their key's.
    @Test func aMessageChangesInPlaceWithOneIndexToKeep() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        let store = try LocalStore(path: path)
        var row = MessageRow(
            id: "m-1", conversationId: "c-1", seq: nil, localOrder: 1, author: .user(id: "alice"), content: .text("hi"),
            replyTo: nil, createdAt: 0, state: .toBeSent, errorCode: nil, errorMessage: nil)
        store.upsert(row)
        let reader = try DatabaseQueue(path: path)
        let rowid = { try reader.read { try Int64.fetchOne($0, sql: "SELECT rowid FROM message WHERE id = 'm-1'") } }
        let before = try rowid()
        row.state = .sent
        row.seq = 1
        store.upsert(row)
        #expect(try rowid() == before)
        #expect(try reader.read { try String.fetchOne($0, sql: "SELECT state FROM message") } == "sent")
        let indexes = try reader.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'message' ORDER BY name")
        }
        #expect(indexes == ["message_order", "sqlite_autoindex_message_1"])
    }

    /// A cache written before v5 loses the index and keeps its messages.
    @Test func anOlderCacheKeepsItsMessagesWithoutTheExtraIndex() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("old.sqlite").path
        let old = try DatabaseQueue(path: path)
        try LocalStore.migrator.migrate(old, upTo: "v4-conversation-aliases")
        let before = try old.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'message' ORDER BY name")
        }
        #expect(before == ["message_on_conversationId", "message_order", "sqlite_autoindex_message_1"])
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO message (id, conversationId, seq, localOrder, authorKind, contentKind, text, createdAt, state)
                    VALUES ('m-1', 'c-1', NULL, 1, 'user', 'text', 'kept', 0, 'toBeSent')
                    """)
        }
        try old.close()
        let store = try LocalStore(path: path)
        #expect(store.unsentMessages().map(\.id) == ["m-1"])
        let after = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'message' ORDER BY name")
        }
        #expect(after == ["message_order", "sqlite_autoindex_message_1"])
    }
}
