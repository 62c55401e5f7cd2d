import GRDB
import Testing

@testable import ChatBackend

/// The event log without rowids (issue 17: memory).
@Suite struct EventTableMigrationTests {
    @Test func eventsWrittenBeforeTheMigrationAreKeptAsTheyWere() throws {
        let queue = try DatabaseQueue()
        try BackendSchema.migrator.migrate(queue, upTo: "v4-event-message-ref")
        let rows: [[DatabaseValueConvertible?]] = [
            ["alice", 1, "messageCreated", 1_000, "c1", 1],
            ["alice", 2, "[\"conversationUpdated\",\"c1\"]", 1_001, nil, nil],
            ["bob", 1, "{\"typing\":{}}", 1_002, nil, nil],
        ]
        try queue.write { db in
            for row in rows {
                try db.execute(
                    sql:
                        "INSERT INTO event (userId, userSeq, kind, createdAt, messageConversationId, messageSeq) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: StatementArguments(row))
            }
        }
        let before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY userId, userSeq") }
        try BackendSchema.migrator.migrate(queue)
        try queue.read { db in
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM event ORDER BY userId, userSeq") == before)
            #expect(throws: (any Error).self) { try Row.fetchAll(db, sql: "SELECT rowid FROM event") }
            let primaryKey = try db.primaryKey("event")
            #expect(primaryKey.columns == ["userId", "userSeq"])
        }
        // The primary key still refuses a second event with the same number.
        #expect(throws: (any Error).self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO event (userId, userSeq, kind, createdAt) VALUES ('alice', 2, 'x', 0)")
            }
        }
    }
}
