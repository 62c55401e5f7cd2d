import ChatTestSupport
import GRDB
import Testing

@testable import ChatSDK

/// The cache keeps the rows it wrote lately in memory (issue 31: a send
/// looked its message up five times in SQLite). What it answers from there
/// is what SQLite holds: a write that failed is not remembered.
@Suite struct RecentRowsTests {
    static func row(_ id: String, state: SendState.Kind, seq: Int64? = nil) -> MessageRow {
        MessageRow(
            id: id, conversationId: "c-1", seq: seq, localOrder: 1, author: .user(id: "alice"), content: .text("hi"),
            replyTo: nil, createdAt: 0, state: state, errorCode: nil, errorMessage: nil)
    }

    @Test func aRowWrittenIsFoundAsWrittenWithoutAPage() {
        let store = LocalStore.inMemory()
        store.upsert(Self.row("m-1", state: .toBeSent))
        #expect(store.message(id: "m-1")?.state == .toBeSent)
        store.upsert(Self.row("m-1", state: .sending))
        #expect(store.message(id: "m-1")?.state == .sending)
        store.upsert(Self.row("m-1", state: .sent, seq: 1))
        #expect(store.message(id: "m-1")?.state == .sent)
        #expect(store.message(id: "m-1")?.seq == 1)
        #expect(store.message(id: "m-2") == nil)
        // Canonically equivalent ids are other ids (issue 26).
        store.upsert(Self.row("caf\u{E9}", state: .toBeSent))
        #expect(store.message(id: "cafe\u{301}") == nil)
    }

    /// Many rows: the oldest are read from SQLite again, as they are there.
    @Test func rowsBeyondTheLimitAreReadAgain() {
        let store = LocalStore.inMemory()
        for index in 0..<(LocalStore.Mirror.recentLimit * 2 + 3) { store.upsert(Self.row("m-\(index)", state: .toBeSent)) }
        for index in [0, 1, LocalStore.Mirror.recentLimit, LocalStore.Mirror.recentLimit * 2 + 2] {
            #expect(store.message(id: "m-\(index)")?.id == "m-\(index)")
        }
    }

    /// A write another connection's lock refused: the store answers what
    /// SQLite holds, the state before.
    @Test func aFailedWriteIsNotRemembered() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("cache.sqlite").path
        let store = try LocalStore(path: path)
        let failures = Locked<[String]>([])
        store.onFailure { failure in failures.withLock { $0.append(failure) } }
        store.upsert(Self.row("m-1", state: .toBeSent))
        let other = try DatabaseQueue(path: path)
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            store.upsert(Self.row("m-1", state: .sent, seq: 1))
            #expect(store.message(id: "m-1")?.state == .toBeSent)
            try db.execute(sql: "ROLLBACK")
        }
        #expect(failures.withLock { $0.count } == 1)
        #expect(store.message(id: "m-1")?.state == .toBeSent)
    }
}
