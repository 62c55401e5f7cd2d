internal import ChatCore
internal import ChatSQLite
internal import GRDB

/// The client's SQLite store: conversations, messages (with their send
/// state) and small facts. Synchronous on purpose: the client's actor calls
/// it on the runtime's executor, so order stays deterministic.
final class LocalStore: Sendable {
    private let db: DatabaseQueue
    /// Told, in one line, of every read or write that failed (a full disk,
    /// a file locked by another process): the client publishes it as a
    /// warning event, so that a failure is never silent.
    private let failureSink = LockedValue<(@Sendable (String) -> Void)?>(nil)

    /// Where failures go (the client's events).
    func onFailure(_ sink: @escaping @Sendable (String) -> Void) { failureSink.withLock { $0 = sink } }

    /// Runs `body`; a failure is reported and gives nil.
    /// `what` is built only when the body fails: `access` runs on every
    /// read and write of the send path.
    private func attempt<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            failureSink.withLock { $0 }?("the cache could not \(what()) (\(Self.reason(error)))")
            return nil
        }
    }

    /// An in-memory store, or a file at `path`. A file that is not a
    /// database, or a database of something else, is refused.
    init(path: String?) throws {
        var configuration = Configuration()
        // `batch` opens a transaction in one access and commits it in another.
        configuration.allowsUnsafeTransactions = true
        if path != nil {
            // A cache: WAL and NORMAL sync (durable across app crashes, not
            // across power loss, which is the right trade for a cache).
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            }
        }
        db = try path.map { try DatabaseQueue(path: $0, configuration: configuration) } ?? DatabaseQueue(configuration: configuration)
        try db.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            if !tables.isEmpty && !tables.contains("grdb_migrations") {
                throw ForeignDatabase()
            }
        }
        try Self.migrator.migrate(db)
    }

    struct ForeignDatabase: Error {}

    /// An in-memory store: what a client uses without a disk cache, and
    /// before a user is set. SQLite opens one without a file, so this fails
    /// only when the process has run out of memory or file descriptors; it
    /// then stops the process saying so, since a client cannot work without
    /// any store.
    static func inMemory() -> LocalStore {
        do {
            return try LocalStore(path: nil)
        } catch {
            fatalError(
                "ChatSDK cannot open an in-memory store (\(reason(error))): the process is out of memory or of file descriptors (ulimit -n); is something keeping clients alive?"
            )
        }
    }

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
        attempt("read the unsent messages") {
            try db.read { db in
                try MessageRow.fetchAll(
                    db, sql: "SELECT \(MessageRow.columns) FROM message WHERE state IN ('toBeSent', 'sending') ORDER BY localOrder")
            }
        } ?? []
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
        migrator.registerMigration("v3-provider-read") { db in
            try db.alter(table: "conversation") { t in t.add(column: "providerReadSeq", .integer) }
        }
        // The server's id of a conversation whose own id another user held
        // (see ConversationAliases).
        migrator.registerMigration("v4-conversation-aliases") { db in
            try db.create(table: "conversationAlias") { t in
                t.primaryKey("localId", .text)
                t.column("serverId", .text).notNull().unique()
            }
        }
        // `message_order` (conversationId, seq, localOrder) serves every
        // lookup by conversation: v1's index of conversationId alone only
        // cost a page written per message stored (issue 17).
        migrator.registerMigration("v5-one-message-index") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS message_on_conversationId")
        }
        // Attachments carry bytes (D6): a message's bytes, kept until the
        // message is sent (the outbox's item is the message and these), and
        // the server's id of them (`ChatClient.data(for:)`).
        migrator.registerMigration("v6-attachments-with-bytes") { db in
            try db.create(table: "attachment") { t in
                t.primaryKey("messageId", .text)
                t.column("attachmentId", .text)
                t.column("data", .blob)
            }
        }
        // Fetched bytes are cached (D6): `fetchedOrder` numbers the bytes
        // fetched from the server, oldest first, which the cache drops
        // first; `mimeType` is the type the server gave them.
        migrator.registerMigration("v7-fetched-attachment-bytes") { db in
            try db.alter(table: "attachment") { t in
                t.add(column: "mimeType", .text)
                t.add(column: "fetchedOrder", .integer)
            }
        }
        return migrator
    }

    // MARK: Conversation ids the server replaced

    /// Every conversation the server knows under another id: local → server.
    func conversationAliases() -> [String: String] {
        attempt("read the conversation aliases") {
            try db.read { db in
                try Row.fetchAll(db, sql: "SELECT localId, serverId FROM conversationAlias").reduce(into: [:]) {
                    $0[$1[0]] = $1[1] as String
                }
            }
        } ?? [:]
    }

    func addConversationAlias(localId: String, serverId: String) {
        willWrite()
        access { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO conversationAlias(localId, serverId) VALUES (?, ?)", arguments: [localId, serverId])
        }
    }

    // MARK: Logouts waiting for the network (A9)

    func addPendingLogout(accessToken: String) {
        commitHeld()
        attempt("keep a logout for later") {
            try db.write { db in
                try db.execute(
                    sql: "INSERT OR IGNORE INTO pendingLogout(accessToken, queuedAt) VALUES (?, (SELECT COUNT(*) FROM pendingLogout))",
                    arguments: [accessToken])
            }
        }
    }

    func pendingLogouts() -> [String] {
        attempt("read the pending logouts") {
            try db.read { db in try String.fetchAll(db, sql: "SELECT accessToken FROM pendingLogout ORDER BY queuedAt") }
        } ?? []
    }

    func removePendingLogout(accessToken: String) {
        commitHeld()
        attempt("forget a pending logout") {
            try db.write { db in try db.execute(sql: "DELETE FROM pendingLogout WHERE accessToken = ?", arguments: [accessToken]) }
        }
    }

    // MARK: Transactions

    /// How many `batch` calls are under way, and whether a transaction is
    /// open: opened by the outermost one, or held by an echo batch for the
    /// answer a send awaits.
    private let batchState = LockedValue((depth: 0, open: false))
    /// Facts written with `lazily`: in memory, written with the next batch.
    private let unwrittenMeta = LockedValue<[String: String?]>([:])
    /// Answers to sends under way (`awaitAnswer`): while one is awaited, an
    /// echo batch leaves its transaction for the answer to commit.
    private let answersAwaited = LockedValue(0)

    /// Runs `body` with every write it makes in one transaction: one commit
    /// for what one step of the SDK writes (a message and its conversation,
    /// an event and its cursor, a page), instead of one per statement.
    /// Nested batches join the outermost one.
    ///
    /// `echo`: the batch of a pushed event. While the answer to a send is
    /// awaited, its transaction stays open and the answer's batch commits
    /// it: the events that echo one's own message and its conversation
    /// carry the same rows as the answer, and cost no commit of their own
    /// (issue 17). Reads on this connection see what it wrote. Until that
    /// commit, neither the events' rows nor their cursor are on disk, so an
    /// app killed meanwhile catches up from the cursor before them.
    func batch<T>(echo: Bool = false, _ body: () throws -> T) rethrows -> T {
        batchState.withLock { $0.depth += 1 }
        defer {
            let hold = echo && answersAwaited.withLock { $0 > 0 }
            let commit = batchState.withLock { state in
                state.depth -= 1
                return state.depth == 0 && state.open && !hold
            }
            if commit { self.commit() }
        }
        return try body()
    }

    /// A send's request is under way: its answer will be written in a
    /// batch (see `batch(echo:)`). Each call is paired with `answerArrived`.
    func awaitAnswer() {
        answersAwaited.withLock { $0 += 1 }
    }

    /// The answer awaited came (or its request failed, or it is no longer
    /// wanted). A transaction still held for it is committed.
    func answerArrived() {
        answersAwaited.withLock { $0 -= 1 }
        commitHeld()
    }

    /// Commits the transaction an echo batch left open, if any: before a
    /// write outside a batch, a write that opens its own transaction, when
    /// the client shuts down or changes stores, and at the store's end.
    func commitHeld() {
        if batchState.withLock({ $0.depth == 0 && $0.open }) { commit() }
    }

    /// Called before every write: inside a batch, the first opens its
    /// transaction (a batch that writes nothing commits nothing). A write
    /// outside any batch commits what an echo batch holds first, then is
    /// its own transaction.
    func willWrite() {
        let (begin, held) = batchState.withLock { state -> (Bool, Bool) in
            guard state.depth > 0 else { return (false, state.open) }
            guard !state.open else { return (false, false) }
            state.open = true
            return (true, false)
        }
        if held { commit() }
        guard begin else { return }
        let began: Void? = attempt("begin a transaction") { try db.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") } }
        if began == nil { batchState.withLock { $0.open = false } }
    }

    private func commit() {
        // Facts kept in memory join the transaction (as a batch's writes).
        batchState.withLock { $0.depth += 1 }
        writeUnwrittenMeta()
        batchState.withLock { $0.depth -= 1 }
        let committed: Void? = attempt("commit") { try db.inDatabase { try $0.execute(sql: "COMMIT") } }
        batchState.withLock { $0.open = false }
        guard committed == nil else { return }
        // What memory holds may not be on disk: read it again from there.
        try? db.inDatabase { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
        lastLocalOrder.withLock { $0 = nil }
        mirror.withLock { $0 = Mirror() }
        wrote()
    }

    private func writeUnwrittenMeta() {
        let pending = unwrittenMeta.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        for (key, value) in pending.sorted(by: { $0.key < $1.key }) { setMeta(key, value) }
    }

    deinit {
        // What an echo batch holds, and a fact kept in memory only, are
        // written before the store goes.
        if batchState.withLock({ $0.open }) { commit() } else { writeUnwrittenMeta() }
    }

    /// Calls `onCommit` after each transaction commits, implicit ones
    /// included (for tests and measurements: what a step costs on disk).
    func observeCommits(_ onCommit: @escaping @Sendable () -> Void) {
        db.add(transactionObserver: CommitCounter(onCommit: onCommit), extent: .databaseLifetime)
    }

    private final class CommitCounter: TransactionObserver, Sendable {
        let onCommit: @Sendable () -> Void
        init(onCommit: @escaping @Sendable () -> Void) { self.onCommit = onCommit }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { onCommit() }
        func databaseDidRollback(_ db: Database) {}
    }

    // MARK: Access

    /// Bumped by every write to conversations or messages: what was read
    /// from them at the same version is still what they hold.
    private let writeCount = LockedValue<UInt64>(0)
    var version: UInt64 { writeCount.withLock { $0 } }
    private func wrote() { writeCount.withLock { $0 &+= 1 } }

    /// Runs `body` on the connection without opening a transaction: each
    /// statement is its own (autocommit), which is all a single read or a
    /// single write needs. Statements come from the connection's statement
    /// cache, so the hot queries are prepared once.
    func access<T>(_ body: (Database) throws -> T, what: String = #function) -> T? {
        attempt(Self.describe(what)) { try db.inDatabase(body) }
    }

    /// "upsert(_:)" as "upsert": what a failure message names.
    private static func describe(_ function: String) -> String {
        "run " + function.prefix { $0 != "(" }
    }

    // MARK: Conversations

    /// Rows are written with an upsert that updates in place: `INSERT OR
    /// REPLACE` deletes and inserts again, rewriting every index of the
    /// row even when only its state changed (issue 17).
    func upsert(_ row: ConversationRow) {
        willWrite()
        let written: Void? = access { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO conversation (id, title, isLocal, createdAt, updatedAt, lastSeq, preview, providerTypingUntil, providerReadSeq)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET title = excluded.title, isLocal = excluded.isLocal, createdAt = excluded.createdAt,
                        updatedAt = excluded.updatedAt, lastSeq = excluded.lastSeq, preview = excluded.preview,
                        providerTypingUntil = excluded.providerTypingUntil, providerReadSeq = excluded.providerReadSeq
                    """
            ).run(
                .text(row.id), .text(row.title), .bool(row.isLocal), .int(row.createdAt), .int(row.updatedAt), .int(row.lastSeq),
                .text(row.preview), .int(row.providerTypingUntil), .int(row.providerReadSeq))
        }
        mirror.withLock { mirror in
            if written != nil {
                mirror.conversations[row.id] = row
            } else {
                mirror.conversations[row.id] = nil
                mirror.hasAllConversations = false
            }
        }
        wrote()
    }

    func conversation(id: String) -> ConversationRow? {
        if let known = mirror.withLock({ $0.conversations[id] }) { return known }
        let row =
            access { db in
                try ConversationRow.fetchOne(
                    db.cachedStatement(sql: "SELECT \(ConversationRow.columns) FROM conversation WHERE id = ?"), arguments: [id])
            } ?? nil
        if let row { mirror.withLock { $0.conversations[row.id] = row } }
        return row
    }

    /// Most recently updated first.
    func conversations(limit: Int) -> [ConversationRow] {
        if let all = mirror.withLock({ $0.allConversations }) {
            return Array(all.sorted(by: Mirror.newerConversation).prefix(limit))
        }
        guard
            let rows = access({ db in
                try ConversationRow.fetchAll(
                    db.cachedStatement(sql: "SELECT \(ConversationRow.columns) FROM conversation ORDER BY updatedAt DESC, id LIMIT ?"),
                    arguments: [limit])
            })
        else { return [] }
        if rows.count < limit, rows.count <= Mirror.conversationLimit {
            // Every conversation is here: the mirror can answer from now on.
            mirror.withLock { mirror in
                for row in rows { mirror.conversations[row.id] = row }
                mirror.hasAllConversations = true
            }
        }
        return rows
    }

    func conversationCount() -> Int {
        access { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM conversation")) ?? 0 } ?? 0
    }

    // MARK: Messages

    /// Messages whose latest state is in memory only: `sending` (a request
    /// in flight) is never written. On disk such a message stays `toBeSent`,
    /// which is what it is after a restart; its outcome is written.
    private let inFlight = LockedValue<[String: MessageRow]>([:])

    func upsert(_ row: MessageRow) {
        if row.state == .sending {
            inFlight.withLock { $0[row.id] = row }
            mirror.withLock { $0.apply(row) }
            wrote()
            return
        }
        inFlight.withLock { _ = $0.removeValue(forKey: row.id) }
        var authorKind = "system"
        var authorName: String?
        switch row.author {
        case .user(let id): (authorKind, authorName) = ("user", id)
        case .provider(let name): (authorKind, authorName) = ("provider", name)
        case .system: break
        }
        var contentKind = "text"
        var text: String?
        var mimeType: String?
        var size: Int64?
        var fileName: String?
        switch row.content {
        case .text(let value): text = value
        case .attachment(let kind, let mime, let bytes, let name):
            (contentKind, mimeType, size, fileName) = (kind.rawValue, mime, bytes, name)
        }
        willWrite()
        let written: Void? = access { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO message (id, conversationId, seq, localOrder, authorKind, authorName, contentKind, text,
                        mimeType, size, fileName, replyTo, createdAt, state, errorCode, errorMessage)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET conversationId = excluded.conversationId, seq = excluded.seq,
                        localOrder = excluded.localOrder, authorKind = excluded.authorKind, authorName = excluded.authorName,
                        contentKind = excluded.contentKind, text = excluded.text, mimeType = excluded.mimeType, size = excluded.size,
                        fileName = excluded.fileName, replyTo = excluded.replyTo, createdAt = excluded.createdAt,
                        state = excluded.state, errorCode = excluded.errorCode, errorMessage = excluded.errorMessage
                    """
            ).run(
                .text(row.id), .text(row.conversationId), .int(row.seq), .int(row.localOrder), .text(authorKind), .text(authorName),
                .text(contentKind), .text(text), .text(mimeType), .int(size), .text(fileName), .text(row.replyTo), .int(row.createdAt),
                .text(row.state.rawValue), .text(row.errorCode), .text(row.errorMessage))
        }
        mirror.withLock { mirror in
            if written != nil { mirror.apply(row) } else { mirror.forget(row) }
        }
        wrote()
        lastLocalOrder.withLock { last in
            if let known = last, row.localOrder > known { last = row.localOrder }
        }
    }

    func message(id: String) -> MessageRow? {
        if let sending = inFlight.withLock({ $0[id] }) { return sending }
        if let known = mirror.withLock({ $0.message(id: id) }) { return known }
        return access { db in
            try MessageRow.fetchOne(db.cachedStatement(sql: "SELECT \(MessageRow.columns) FROM message WHERE id = ?"), arguments: [id])
        } ?? nil
    }

    /// Newest first: messages still on their way (no seq yet) by local
    /// order, then the server's by seq. Two queries that each walk the
    /// `message_order` index backwards, so that a page costs the same in a
    /// conversation of any length (one `ORDER BY seq IS NULL DESC, …` would
    /// sort the whole conversation).
    func messages(conversationId: String, limit: Int) -> [MessageRow] {
        let known = mirror.withLock { $0.pages[conversationId] }
        if let known, known.complete || known.rows.count >= limit {
            return Array(known.rows.prefix(limit))
        }
        // Read only what follows the rows already here (keyset pagination).
        let head = known?.rows ?? []
        guard
            let tail = access({ db in try Self.messages(db, conversationId: conversationId, after: head.last, limit: limit - head.count) })
        else { return [] }
        var rows = head + tail
        let sending = inFlight.withLock { $0 }
        if !sending.isEmpty { rows = rows.map { sending[$0.id] ?? $0 } }
        if limit <= Mirror.pageLimit {
            mirror.withLock {
                $0.pages[conversationId] = Mirror.Page(rows: rows, complete: rows.count < limit, wanted: max(limit, known?.wanted ?? 0))
            }
        }
        return rows
    }

    /// Up to `limit` messages that come after `last` in the page order (from
    /// the newest when nil). Each query walks the `message_order` index, so
    /// that a page costs the same in a conversation of any length (one
    /// `ORDER BY seq IS NULL DESC, …` would sort the whole conversation).
    private static func messages(_ db: Database, conversationId: String, after last: MessageRow?, limit: Int) throws -> [MessageRow] {
        var rows: [MessageRow] = []
        if last == nil || last?.seq == nil {
            rows = try MessageRow.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(MessageRow.columns) FROM message WHERE conversationId = ? AND seq IS NULL AND localOrder < ?
                        ORDER BY localOrder DESC LIMIT ?
                        """), arguments: [conversationId, last?.localOrder ?? Int64.max, limit])
        }
        if rows.count < limit {
            let seq = last?.seq ?? Int64.max
            let localOrder = last?.seq == nil ? Int64.max : last!.localOrder
            rows += try MessageRow.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(MessageRow.columns) FROM message WHERE conversationId = ? AND seq IS NOT NULL
                        AND (seq < ? OR (seq = ? AND localOrder < ?))
                        ORDER BY seq DESC, localOrder DESC LIMIT ?
                        """), arguments: [conversationId, seq, seq, localOrder, limit - rows.count])
        }
        return rows
    }

    func messageCount(conversationId: String) -> Int {
        access { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM message WHERE conversationId = ?"), arguments: [conversationId])
                ?? 0
        } ?? 0
    }

    /// Whether the conversation has more than `count` messages here; costs
    /// `count` steps, not the length of the conversation.
    func hasMessages(conversationId: String, moreThan count: Int) -> Bool {
        access { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM message WHERE conversationId = ? LIMIT 1 OFFSET ?)
                        """), arguments: [conversationId, count]) ?? false
        } ?? false
    }

    func unsentCount(conversationId: String) -> Int {
        if let count = mirror.withLock({ $0.unsentCount(conversationId: conversationId) }) { return count }
        return access { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM message WHERE conversationId = ? AND seq IS NULL"),
                arguments: [conversationId]) ?? 0
        } ?? 0
    }

    func newestSeq(conversationId: String) -> Int64? {
        access { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(seq) FROM message WHERE conversationId = ?"), arguments: [conversationId])
        } ?? nil
    }

    private let mirror = LockedValue(Mirror())

    /// The largest local order given so far, known once read from the table
    /// (nil: not read yet).
    private let lastLocalOrder = LockedValue<Int64?>(nil)

    func nextLocalOrder() -> Int64 {
        let last =
            lastLocalOrder.withLock { $0 } ?? access { db in
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(localOrder) FROM message"))
            }.flatMap { $0 } ?? 0
        lastLocalOrder.withLock { $0 = last }
        return last + 1
    }

    // MARK: Facts

    func meta(_ key: String) -> String? {
        if let known = mirror.withLock({ $0.meta[key] }) { return known }
        guard
            let value = access({ db in
                try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key])
            })
        else { return nil }
        mirror.withLock { $0.meta[key] = .some(value) }
        return value
    }

    /// Sets a fact. `lazily`, for a fact whose loss costs only work done
    /// again (the realtime cursor: events are replayed idempotently), it is
    /// kept in memory and written with the next batch, sparing a commit.
    func setMeta(_ key: String, _ value: String?, lazily: Bool = false) {
        if lazily {
            mirror.withLock { $0.meta[key] = .some(value) }
            unwrittenMeta.withLock { $0[key] = .some(value) }
            return
        }
        unwrittenMeta.withLock { _ = $0.removeValue(forKey: key) }
        willWrite()
        let written: Void? = access { db in
            if let value {
                try db.cachedStatement(
                    sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                ).execute(arguments: [key, value])
            } else {
                try db.cachedStatement(sql: "DELETE FROM meta WHERE key = ?").execute(arguments: [key])
            }
        }
        mirror.withLock { $0.meta[key] = written != nil ? .some(value) : nil }
    }

    /// Removes everything (A4).
    func wipe() {
        commitHeld()
        attempt("wipe the signed-out user's data") {
            try db.write { db in
                try db.execute(sql: "DELETE FROM message; DELETE FROM conversation; DELETE FROM meta; DELETE FROM attachment;")
            }
        }
        lastLocalOrder.withLock { $0 = nil }
        mirror.withLock { $0 = Mirror() }
        inFlight.withLock { $0 = [:] }
        wrote()
    }
}

extension LocalStore {
    /// Rows the watchers read again and again, kept in memory with SQLite
    /// as the store of record: writes go to SQLite first, then update the
    /// mirror (write-through); reads the mirror cannot answer go to SQLite.
    struct Mirror {
        /// The newest rows of a conversation, in `messages(conversationId:limit:)`
        /// order: a prefix of that order, or all of it when `complete`.
        struct Page {
            var rows: [MessageRow]
            var complete: Bool
            /// The longest page asked for: new messages push older ones out
            /// beyond it, so that a page does not grow with every send.
            var wanted: Int
        }

        /// Longest page kept: a watcher that loads more pages extends it
        /// instead of reading all its pages again.
        static let pageLimit = 4_096

        var pages: [String: Page] = [:]
        /// The rows written lately, by id, whether or not a page holds
        /// them: a send looks its message up again and again (to save each
        /// of its states, to send it, to store the answer and its echo),
        /// and without a watcher no page held it, so each lookup read
        /// SQLite (issue 31: about 31 k instructions each).
        var recent: [ExactKey: MessageRow] = [:]
        /// Most rows in `recent`: beyond, it starts again.
        static let recentLimit = 256
        var conversations: [String: ConversationRow] = [:]
        /// Whether `conversations` holds every conversation row (set once
        /// the table was read whole; upserts keep it so).
        var hasAllConversations = false
        /// Facts read or written, including those known to be absent.
        var meta: [String: String?] = [:]
        /// Most conversations listed from memory; beyond, SQLite sorts.
        static let conversationLimit = 256

        var allConversations: Dictionary<String, ConversationRow>.Values? {
            hasAllConversations && conversations.count <= Self.conversationLimit ? conversations.values : nil
        }

        /// `ORDER BY updatedAt DESC, id` (ids compared as SQLite's BINARY
        /// collation does: by UTF-8 bytes).
        static func newerConversation(_ a: ConversationRow, _ b: ConversationRow) -> Bool {
            a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }

        /// Puts a written row where the page order puts it. When a row of an
        /// incomplete page moves past its end, which row follows is not
        /// known here: the page is dropped and read again when needed.
        mutating func apply(_ row: MessageRow) {
            let key = ExactKey(row.id)
            if recent.count >= Self.recentLimit, recent[key] == nil { recent.removeAll(keepingCapacity: true) }
            recent[key] = row
            guard var page = pages[row.conversationId] else { return }
            let previous = page.rows.firstIndex { $0.id == row.id }
            if let previous { page.rows.remove(at: previous) }
            let position = page.rows.firstIndex { Self.precedes(row, $0) } ?? page.rows.count
            if position < page.rows.count || page.complete {
                page.rows.insert(row, at: position)
                if page.rows.count > page.wanted {
                    page.rows.removeLast(page.rows.count - page.wanted)
                    page.complete = false
                }
            } else if previous != nil {
                pages[row.conversationId] = nil
                return
            }
            pages[row.conversationId] = page
        }

        /// A row unwritten (its write failed) is no longer known here.
        mutating func forget(_ row: MessageRow) {
            pages[row.conversationId] = nil
            recent[ExactKey(row.id)] = nil
        }

        func message(id: String) -> MessageRow? {
            if let row = recent[ExactKey(id)] { return row }
            for page in pages.values {
                if let row = page.rows.first(where: { $0.id == id }) { return row }
            }
            return nil
        }

        /// Unsent messages come first in a page: their count is known when
        /// the page holds all of the conversation or a sent message.
        func unsentCount(conversationId: String) -> Int? {
            guard let page = pages[conversationId] else { return nil }
            let unsent = page.rows.prefix { $0.seq == nil }.count
            return page.complete || unsent < page.rows.count ? unsent : nil
        }

        /// The page order: unsent first by local order, newest first; then
        /// by seq, newest first (the ORDER BY of `messages`).
        static func precedes(_ a: MessageRow, _ b: MessageRow) -> Bool {
            switch (a.seq, b.seq) {
            case (nil, nil): a.localOrder > b.localOrder
            case (nil, _?): true
            case (_?, nil): false
            case (let x?, let y?): x != y ? x > y : a.localOrder > b.localOrder
            }
        }
    }
}

struct ConversationRow: FetchableRecord, Hashable {
    var id: String
    var title: String?
    var isLocal: Bool
    var createdAt: Int64
    var updatedAt: Int64
    var lastSeq: Int64
    var preview: String?
    var providerTypingUntil: Int64?
    /// The seq of the newest message a provider has read (nil: none).
    var providerReadSeq: Int64?

    init(
        id: String, title: String?, isLocal: Bool, createdAt: Int64, updatedAt: Int64, lastSeq: Int64, preview: String?,
        providerTypingUntil: Int64?,
        providerReadSeq: Int64? = nil
    ) {
        self.id = id
        self.title = title
        self.isLocal = isLocal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastSeq = lastSeq
        self.preview = preview
        self.providerTypingUntil = providerTypingUntil
        self.providerReadSeq = providerReadSeq
    }

    /// What the store selects, in the order `init(row:)` reads.
    static let columns = "id, title, isLocal, createdAt, updatedAt, lastSeq, preview, providerTypingUntil, providerReadSeq"

    /// Reads the columns of ``columns`` by position (by name, each lookup
    /// hashed a lowercased column name).
    init(row: Row) {
        id = row[0]
        title = row[1]
        isLocal = row[2]
        createdAt = row[3]
        updatedAt = row[4]
        lastSeq = row[5]
        preview = row[6]
        providerTypingUntil = row[7]
        providerReadSeq = row[8]
    }
}

/// A message row. Author and content are plain columns (no JSON), so that
/// reading a page of messages stays cheap.
struct MessageRow: FetchableRecord, Hashable {
    var id: String
    var conversationId: String
    var seq: Int64?
    var localOrder: Int64
    /// The SDK's own model types: a row becomes a `Message` at every
    /// emission, so the wire's are mapped once, when the row is made.
    var author: MessageAuthor
    var content: MessageContent
    var replyTo: String?
    var createdAt: Int64
    var state: SendState.Kind
    var errorCode: String?
    var errorMessage: String?

    init(
        id: String, conversationId: String, seq: Int64?, localOrder: Int64, author: MessageAuthor, content: MessageContent,
        replyTo: String?,
        createdAt: Int64, state: SendState.Kind, errorCode: String?, errorMessage: String?
    ) {
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

    /// What the store selects, in the order `init(row:)` reads.
    static let columns = """
        id, conversationId, seq, localOrder, authorKind, authorName, contentKind, text, mimeType, size, fileName, \
        replyTo, createdAt, state, errorCode, errorMessage
        """

    /// Reads the columns of ``columns`` by position (by name, each lookup
    /// hashed a lowercased column name, for every row of every page).
    init(row: Row) {
        id = row[0]
        conversationId = row[1]
        seq = row[2]
        localOrder = row[3]
        let authorName: String = row[5] ?? ""
        switch row[4] as String {
        case "user": author = .user(id: authorName)
        case "provider": author = .provider(name: authorName)
        default: author = .system
        }
        let kind: String = row[6]
        if kind == "text" {
            content = .text(row[7] ?? "")
        } else {
            content = .attachment(
                kind: MessageContent.AttachmentKind(rawValue: kind) ?? .document,
                mimeType: row[8] ?? "", size: row[9] ?? 0, fileName: row[10])
        }
        replyTo = row[11]
        createdAt = row[12]
        // A value no version wrote reads as what the server has.
        state = SendState.Kind(rawValue: row[13]) ?? .sent
        errorCode = row[14]
        errorMessage = row[15]
    }
}
