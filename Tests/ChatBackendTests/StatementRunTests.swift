import ChatSQLite
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing

/// `Statement.run` (ChatSQLite): what the backend, the SDK's cache and the
/// recorder write per send, bound by SQLite's own calls (issue 31). It
/// writes what `execute(arguments:)` writes, throws what it throws, and a
/// transaction observer still hears of every commit.
@Suite struct StatementRunTests {
    static func queue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, b BLOB, s TEXT)") }
        return queue
    }

    /// Each row written by `run` and by `execute(arguments:)`, in a
    /// transaction and outside: the four tables hold the same.
    @Test func itWritesWhatExecuteWrites() throws {
        let rows: [(BoundValue, BoundValue, BoundValue, BoundValue, StatementArguments)] = [
            (.text("caf\u{E9}"), .int(Int64.min), .blob(Data([0, 1, 255])), .null, ["caf\u{E9}", Int64.min, Data([0, 1, 255]), nil]),
            (.text("b"), .int(nil as Int?), .blob(Data([9])), .text("x\0y"), ["b", nil, Data([9]), "x\0y"]),
            (.text("c"), .int(Int64(7) as Int64?), .null, .text(nil), ["c", 7, nil, nil]),
            (.text("d"), .bool(true), .null, .text(""), ["d", true, nil, ""]),
        ]
        var tables: [[Row]] = []
        for (useRun, inTransaction) in [(true, true), (true, false), (false, true), (false, false)] {
            let queue = try Self.queue()
            try queue.writeWithoutTransaction { db in
                if inTransaction { try db.execute(sql: "BEGIN") }
                let insert = try db.cachedStatement(sql: "INSERT INTO t (id, n, b, s) VALUES (?, ?, ?, ?)")
                for (id, n, b, s, arguments) in rows {
                    if useRun { try insert.run(id, n, b, s) } else { try insert.execute(arguments: arguments) }
                }
                if inTransaction { try db.execute(sql: "COMMIT") }
            }
            tables.append(try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, n, b, s FROM t ORDER BY id") })
        }
        #expect(tables[0].count == 4)
        #expect(tables[0][1] == ["id": "c", "n": 7, "b": nil, "s": nil])
        #expect(Set(tables.map { $0.description }).count == 1, "\(tables)")
    }

    @Test(arguments: [true, false]) func itThrowsWhatExecuteThrows(inTransaction: Bool) throws {
        let queue = try Self.queue()
        try queue.writeWithoutTransaction { db in
            if inTransaction { try db.execute(sql: "BEGIN") }
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id) VALUES (?)")
            try insert.run(.text("same"))
            let error = #expect(throws: DatabaseError.self) { try insert.run(.text("same")) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql == "INSERT INTO t (id) VALUES (?)")
            // The statement is usable again.
            try insert.run(.text("other"))
            if inTransaction { try db.execute(sql: "COMMIT") }
        }
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") } == ["other", "same"])
    }

    /// Texts and blobs are bound where they lie, for the step only: after
    /// `run`, whether it succeeded or not, no parameter still points at them.
    @Test func nothingStaysBoundAfterARun() throws {
        let queue = try Self.queue()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id, n, b, s) VALUES (?, ?, ?, ?)")
            func bound() -> String? {
                guard let sql = sqlite3_expanded_sql(insert.sqliteStatement) else { return nil }
                defer { sqlite3_free(sql) }
                return String(cString: sql)
            }
            try insert.run(.text(String(repeating: "k", count: 40)), .int(1), .blob(Data([1, 2])), .text("short"))
            #expect(bound() == "INSERT INTO t (id, n, b, s) VALUES (NULL, NULL, NULL, NULL)")
            #expect(throws: DatabaseError.self) { try insert.run(.text(String(repeating: "k", count: 40)), .int(2), .null, .text("s")) }
            #expect(bound() == "INSERT INTO t (id, n, b, s) VALUES (NULL, NULL, NULL, NULL)")
            try db.execute(sql: "COMMIT")
        }
        #expect(
            try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, n, b, s FROM t") } == [
                ["id": String(repeating: "k", count: 40), "n": 1, "b": Data([1, 2]), "s": "short"]
            ])
    }

    /// Outside a transaction a write commits on its own: GRDB runs it, so
    /// that its observers hear of the commit. Inside one, the COMMIT does.
    @Test func observersHearOfEveryCommit() throws {
        let queue = try Self.queue()
        let observer = CommitCounter()
        queue.add(transactionObserver: observer, extent: .databaseLifetime)
        try queue.writeWithoutTransaction { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id) VALUES (?)")
            try insert.run(.text("a"))
            try insert.run(.text("b"))
        }
        #expect(observer.commits.withLock { $0 } == 2)
        try queue.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE").run()
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id) VALUES (?)")
            try insert.run(.text("c"))
            try insert.run(.text("d"))
            try db.execute(sql: "COMMIT")
        }
        #expect(observer.commits.withLock { $0 } == 3)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 4)
    }

    final class CommitCounter: TransactionObserver, Sendable {
        let commits = Mutex(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }
}
