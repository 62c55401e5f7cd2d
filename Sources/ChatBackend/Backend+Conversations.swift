import ChatCore
import GRDB

extension Backend {
    /// Conversations of the caller, most recently updated first (tie: id ascending).
    func listConversations(_ caller: Caller, cursor: String?, limit: Int) throws(WireError) -> WirePage<WireConversation> {
        let limit = PageCursor.clamp(limit)
        var after: (updatedAt: Int64, id: String)?
        if let cursor {
            guard case .conversations(let updatedAt, let id) = try PageCursor(decoding: cursor) else {
                throw WireError(.badRequest, "The cursor is not a conversation cursor")
            }
            after = (updatedAt, id)
        }
        let now = environment.now()
        return try read { db in
            let rows: [Row]
            if let after {
                rows = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM conversation
                            WHERE ownerId = ? AND (updatedAt < ? OR (updatedAt = ? AND id > ?))
                            ORDER BY updatedAt DESC, id ASC LIMIT ?
                            """),
                    // Keys sort as the ids their app sees (U+001F sorts below
                    // every character an id may hold), and a key is after the
                    // scoped key of the cursor's id exactly when its id is
                    // after that id: the cursor names the id, as the wire does.
                    arguments: [
                        caller.userId, after.updatedAt, after.updatedAt, AppKey.scoped(after.id, apiKey: caller.apiKey), limit + 1,
                    ])
            } else {
                rows = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM conversation WHERE ownerId = ? ORDER BY updatedAt DESC, id ASC LIMIT ?
                            """), arguments: [caller.userId, limit + 1])
            }
            let elements = rows.prefix(limit).map { Self.conversation(from: $0, now: now) }
            let next =
                rows.count > limit
                ? elements.last.map {
                    PageCursor.conversations(updatedAt: $0.updatedAt.milliseconds, id: $0.id).encoded
                } : nil
            return WirePage(elements: elements, nextCursor: next)
        }
    }

    func getConversation(_ caller: Caller, id: String) throws(WireError) -> WireConversation {
        let now = environment.now()
        return try read { db in
            Self.conversation(from: try ownedConversationRow(db, id: id, caller: caller), now: now)
        }
    }

    func setTyping(_ caller: Caller, conversationId: String) throws(WireError) {
        // The user's own typing state is not shown to anyone the backend
        // models yet; the request is checked and acknowledged.
        _ = try read { db in try ownedConversationRow(db, id: conversationId, caller: caller) }
    }

    /// Conversations of a user by key (``AppKey``), most recently updated first (for the workbench).
    package func conversations(userId: String) -> [WireConversation] {
        let now = environment.now()
        return
            (try? read { db in
                try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM conversation WHERE ownerId = ? ORDER BY updatedAt DESC, id ASC"),
                    arguments: [userId]
                )
                .map { Self.conversation(from: $0, now: now) }
            }) ?? []
    }

    /// The key of the owner of the conversation with key `id`, or nil if there is no such conversation.
    package func owner(ofConversation id: String) -> String? {
        try? read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT ownerId FROM conversation WHERE id = ?"), arguments: [id]) }
    }

    // MARK: Helpers

    /// The row of the caller's conversation `id`: unknown, or another app's
    /// (ids are per app, ``AppKey``) → `unknownConversation`; another user's
    /// of the caller's app → `forbidden`. A conversation the user asked for
    /// under an id another user of the app held is found under that id too
    /// (see `requestedId`).
    func ownedConversationRow(_ db: Database, id: String, caller: Caller) throws -> Row {
        if let row = try callerConversationRow(db, id: id, caller: caller) { return row }
        guard try conversationKey(db, apiKey: caller.apiKey, id: id) != nil else { throw WireError(.unknownConversation) }
        throw WireError(.forbidden, "The conversation belongs to another user")
    }

    /// The caller's conversation `id`: theirs under that id (its key,
    /// ``AppKey``), or the one the server created for them when they asked
    /// for `id` and another user of their app held it. Nil when they have none.
    ///
    /// Its key is `id` or `id` scoped to the app, never both for one owner
    /// (the scoped key is made only when another app holds `id`), so one
    /// statement asks for either with no order: `ORDER BY length(id)` had
    /// SQLite sort them (103 k instructions of a send, 38 k without; issue
    /// 31). One statement, not the two keys in turn: whether another app
    /// holds `id` must not change what runs (issue 26, 3c;
    /// PerAppIdTests.anotherAppsIdsRunTheSameStatementsAsUnknownOnes).
    func callerConversationRow(_ db: Database, id: String, caller: Caller) throws -> Row? {
        if let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM conversation WHERE id IN (?, ?) AND ownerId = ? LIMIT 1"),
            arguments: [id, AppKey.scoped(id, apiKey: caller.apiKey), caller.userId])
        {
            return row
        }
        return try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM conversation WHERE ownerId = ? AND requestedId = ? ORDER BY createdAt, id LIMIT 1"),
            arguments: [caller.userId, id])
    }

    /// The conversation stored under key `id` (``AppKey``), of whichever app.
    func conversationRow(_ db: Database, id: String) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM conversation WHERE id = ?"), arguments: [id])
    }

    /// Builds the wire value (the id its app sees, ``AppKey``); a provider
    /// typing state already past is reported as nil.
    static func conversation(from row: Row, now: Instant) -> WireConversation {
        let typingUntil = (row["providerTypingUntil"] as Int64?).map(Instant.init(milliseconds:))
        return WireConversation(
            id: AppKey.visible(row["id"] as String),
            title: row["title"],
            createdAt: Instant(milliseconds: row["createdAt"]),
            updatedAt: Instant(milliseconds: row["updatedAt"]),
            lastSeq: row["lastSeq"],
            lastMessagePreview: row["lastMessagePreview"],
            providerTypingUntil: typingUntil.flatMap { $0 > now ? $0 : nil },
            providerReadSeq: (row["providerReadSeq"] as Int64?).flatMap { $0 > 0 ? $0 : nil })
    }
}
