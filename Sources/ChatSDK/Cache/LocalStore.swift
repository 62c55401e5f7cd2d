import GRDB

/// The client's SQLite store: conversations, messages (with their send
/// state) and small facts. Synchronous on purpose: the client's actor calls
/// it on the runtime's executor, so order stays deterministic.
final class LocalStore: Sendable {
    private let db: DatabaseQueue

    /// An in-memory store, or a file at `path`. A file that is not a
    /// database, or a database of something else, is refused.
    init(path: String?) throws {
        var configuration = Configuration()
        if path != nil {
            // A cache: WAL and NORMAL sync (durable across app crashes, not
            // across power loss, which is the right trade for a cache).
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            }
        }
        db = try path.map { try DatabaseQueue(path: $0, configuration: configuration) } ?? DatabaseQueue()
        try db.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            if !tables.isEmpty && !tables.contains("grdb_migrations") {
                throw ForeignDatabase()
            }
        }
        try Self.migrator.migrate(db)
    }

    struct ForeignDatabase: Error {}

    /// Where a client's cache for a user lives.
    static func path(in folder: String, deviceId: String, userId: String) -> String {
        let safe = { (text: String) in String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) }
        return folder + "/cache-\(safe(deviceId))-\(safe(userId)).sqlite"
    }

    /// A short reason for a store that cannot be opened.
    static func reason(_ error: any Error) -> String {
        if error is ForeignDatabase { return "it belongs to something else" }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: return "file is not a database"
            case .SQLITE_CORRUPT: return "database is corrupt"
            case .SQLITE_CANTOPEN: return "cannot open the file"
            default: return error.message ?? "\(error.resultCode)"
            }
        }
        return "\(error)"
    }

    /// Messages not yet on the server (toBeSent or sending), oldest first.
    func unsentMessages() -> [MessageRow] {
        (try? db.read { db in
            try MessageRow.fetchAll(db, sql: "SELECT * FROM message WHERE state IN ('toBeSent', 'sending') ORDER BY localOrder")
        }) ?? []
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
                t.column("authorKind", .text).notNull()
                t.column("authorName", .text)
                t.column("contentKind", .text).notNull()
                t.column("text", .text)
                t.column("mimeType", .text)
                t.column("size", .integer)
                t.column("fileName", .text)
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
        migrator.registerMigration("v2-pending-logouts") { db in
            try db.create(table: "pendingLogout") { t in
                t.primaryKey("accessToken", .text)
                t.column("queuedAt", .integer).notNull()
            }
        }
        return migrator
    }

    // MARK: Logouts waiting for the network (A9)

    func addPendingLogout(accessToken: String) {
        try? db.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO pendingLogout(accessToken, queuedAt) VALUES (?, (SELECT COUNT(*) FROM pendingLogout))", arguments: [accessToken])
        }
    }

    func pendingLogouts() -> [String] {
        (try? db.read { db in try String.fetchAll(db, sql: "SELECT accessToken FROM pendingLogout ORDER BY queuedAt") }) ?? []
    }

    func removePendingLogout(accessToken: String) {
        try? db.write { db in try db.execute(sql: "DELETE FROM pendingLogout WHERE accessToken = ?", arguments: [accessToken]) }
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

struct ConversationRow: FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "conversation"
    var id: String
    var title: String?
    var isLocal: Bool
    var createdAt: Int64
    var updatedAt: Int64
    var lastSeq: Int64
    var preview: String?
    var providerTypingUntil: Int64?

    init(id: String, title: String?, isLocal: Bool, createdAt: Int64, updatedAt: Int64, lastSeq: Int64, preview: String?, providerTypingUntil: Int64?) {
        self.id = id
        self.title = title
        self.isLocal = isLocal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastSeq = lastSeq
        self.preview = preview
        self.providerTypingUntil = providerTypingUntil
    }

    init(row: Row) {
        id = row["id"]
        title = row["title"]
        isLocal = row["isLocal"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        lastSeq = row["lastSeq"]
        preview = row["preview"]
        providerTypingUntil = row["providerTypingUntil"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["title"] = title
        container["isLocal"] = isLocal
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
        container["lastSeq"] = lastSeq
        container["preview"] = preview
        container["providerTypingUntil"] = providerTypingUntil
    }
}

/// A message row. Author and content are plain columns (no JSON), so that
/// reading a page of messages stays cheap.
struct MessageRow: FetchableRecord, PersistableRecord, Hashable {
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

    init(id: String, conversationId: String, seq: Int64?, localOrder: Int64, author: WireAuthor, content: WireContent, replyTo: String?, createdAt: Int64, state: String, errorCode: String?, errorMessage: String?) {
        self.id = id
        self.conversationId = conversationId
        self.seq = seq
        self.localOrder = localOrder
        self.author = author
        self.content = content
        self.replyTo = replyTo
        self.createdAt = createdAt
        self.state = state
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    init(row: Row) {
        id = row["id"]
        conversationId = row["conversationId"]
        seq = row["seq"]
        localOrder = row["localOrder"]
        let authorName: String = row["authorName"] ?? ""
        switch row["authorKind"] as String {
        case "user": author = .user(id: authorName)
        case "provider": author = .provider(name: authorName)
        default: author = .system
        }
        let kind: String = row["contentKind"]
        if kind == "text" {
            content = .text(row["text"] ?? "")
        } else {
            content = .attachment(
                kind: WireContent.AttachmentKind(rawValue: kind) ?? .document,
                mimeType: row["mimeType"] ?? "", size: row["size"] ?? 0, fileName: row["fileName"])
        }
        replyTo = row["replyTo"]
        createdAt = row["createdAt"]
        state = row["state"]
        errorCode = row["errorCode"]
        errorMessage = row["errorMessage"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["conversationId"] = conversationId
        container["seq"] = seq
        container["localOrder"] = localOrder
        switch author {
        case .user(let id):
            container["authorKind"] = "user"
            container["authorName"] = id
        case .provider(let name):
            container["authorKind"] = "provider"
            container["authorName"] = name
        case .system:
            container["authorKind"] = "system"
        }
        switch content {
        case .text(let text):
            container["contentKind"] = "text"
            container["text"] = text
        case .attachment(let kind, let mimeType, let size, let fileName):
            container["contentKind"] = kind.rawValue
            container["mimeType"] = mimeType
            container["size"] = size
            container["fileName"] = fileName
        }
        container["replyTo"] = replyTo
        container["createdAt"] = createdAt
        container["state"] = state
        container["errorCode"] = errorCode
        container["errorMessage"] = errorMessage
    }
}
