import GRDB

/// The client's SQLite store: conversations, messages (with their send
/// state) and small facts. Synchronous on purpose: the client's actor calls
/// it on the runtime's executor, so order stays deterministic.
final class LocalStore: Sendable {
    private let db: DatabaseQueue

    /// An in-memory store, or a file at `path`.
    init(path: String?) throws {
        db = try path.map { try DatabaseQueue(path: $0) } ?? DatabaseQueue()
        try Self.migrator.migrate(db)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "conversation") { t in
                t.primaryKey("id", .text)
                t.column("title", .text)
                t.column("isLocal", .boolean).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("updatedAt", .integer).notNull()
                t.column("lastSeq", .integer).notNull()
                t.column("preview", .text)
                t.column("providerTypingUntil", .integer)
            }
            try db.create(table: "message") { t in
                t.primaryKey("id", .text)
                t.column("conversationId", .text).notNull().indexed()
                t.column("seq", .integer)
                t.column("localOrder", .integer).notNull()
                t.column("author", .jsonText).notNull()
                t.column("content", .jsonText).notNull()
                t.column("replyTo", .text)
                t.column("createdAt", .integer).notNull()
                t.column("state", .text).notNull()
                t.column("errorCode", .text)
                t.column("errorMessage", .text)
            }
            try db.create(index: "message_order", on: "message", columns: ["conversationId", "seq", "localOrder"])
            try db.create(table: "meta") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        return migrator
    }

    // MARK: Conversations

    func upsert(_ row: ConversationRow) {
        try? db.write { db in try row.upsert(db) }
    }

    func conversation(id: String) -> ConversationRow? {
        try? db.read { db in try ConversationRow.fetchOne(db, key: id) }
    }

    /// Most recently updated first.
    func conversations(limit: Int) -> [ConversationRow] {
        (try? db.read { db in
            try ConversationRow.order(Column("updatedAt").desc, Column("id")).limit(limit).fetchAll(db)
        }) ?? []
    }

    func conversationCount() -> Int {
        (try? db.read { db in try ConversationRow.fetchCount(db) }) ?? 0
    }

    // MARK: Messages

    func upsert(_ row: MessageRow) {
        try? db.write { db in try row.upsert(db) }
    }

    func message(id: String) -> MessageRow? {
        try? db.read { db in try MessageRow.fetchOne(db, key: id) }
    }

    /// Newest first: messages still on their way (no seq yet) by local
    /// order, then the server's by seq.
    func messages(conversationId: String, limit: Int) -> [MessageRow] {
        (try? db.read { db in
            try MessageRow.fetchAll(db, sql: """
                SELECT * FROM message WHERE conversationId = ?
                ORDER BY seq IS NULL DESC, seq DESC, localOrder DESC LIMIT ?
                """, arguments: [conversationId, limit])
        }) ?? []
    }

    func messageCount(conversationId: String) -> Int {
        (try? db.read { db in
            try MessageRow.filter(Column("conversationId") == conversationId).fetchCount(db)
        }) ?? 0
    }

    func unsentCount(conversationId: String) -> Int {
        (try? db.read { db in
            try MessageRow.filter(Column("conversationId") == conversationId && Column("seq") == nil).fetchCount(db)
        }) ?? 0
    }

    func newestSeq(conversationId: String) -> Int64? {
        try? db.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM message WHERE conversationId = ?", arguments: [conversationId])
        }
    }

    func nextLocalOrder() -> Int64 {
        (try? db.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(localOrder) FROM message")
        }).flatMap { $0 }.map { $0 + 1 } ?? 1
    }

    // MARK: Facts

    func meta(_ key: String) -> String? {
        try? db.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String?) {
        try? db.write { db in
            if let value {
                try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Removes everything (A4).
    func wipe() {
        try? db.write { db in
            try db.execute(sql: "DELETE FROM message; DELETE FROM conversation; DELETE FROM meta;")
        }
    }
}

struct ConversationRow: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "conversation"
    var id: String
    var title: String?
    var isLocal: Bool
    var createdAt: Int64
    var updatedAt: Int64
    var lastSeq: Int64
    var preview: String?
    var providerTypingUntil: Int64?
}

struct MessageRow: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "message"
    var id: String
    var conversationId: String
    var seq: Int64?
    var localOrder: Int64
    var author: WireAuthor
    var content: WireContent
    var replyTo: String?
    var createdAt: Int64
    var state: String
    var errorCode: String?
    var errorMessage: String?
}
