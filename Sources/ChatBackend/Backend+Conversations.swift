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
                            """), arguments: [caller.userId, after.updatedAt, after.updatedAt, after.id, limit + 1])
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
            Self.conversation(from: try ownedConversationRow(db, id: id, userId: caller.userId), now: now)
        }
    }

    func setTyping(_ caller: Caller, conversationId: String) throws(WireError) {
        // The user's own typing state is not shown to anyone the backend
        // models yet; the request is checked and acknowledged.
        _ = try read { db in try ownedConversationRow(db, id: conversationId, userId: caller.userId) }
    }

    /// Conversations of a user, most recently updated first (for the workbench).
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

    /// The owner of a conversation, or nil if there is no such conversation.
    package func owner(ofConversation id: String) -> String? {
        try? read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT ownerId FROM conversation WHERE id = ?"), arguments: [id]) }
    }

    // MARK: Helpers

    /// The row of a conversation owned by `userId`: unknown → `unknownConversation`, another user's → `forbidden`.
    /// A conversation the user asked for under an id another user held is
    /// found under that id too (see `requestedId`).
    func ownedConversationRow(_ db: Database, id: String, userId: String) throws -> Row {
        if let row = try callerConversationRow(db, id: id, userId: userId) { return row }
        guard try conversationRow(db, id: id) != nil else { throw WireError(.unknownConversation) }
        throw WireError(.forbidden, "The conversation belongs to another user")
    }

    /// The user's conversation `id`: theirs under that id, or the one the
    /// server created for them when they asked for `id` and another user
    /// held it. Nil when they have none.
    func callerConversationRow(_ db: Database, id: String, userId: String) throws -> Row? {
        if let row = try conversationRow(db, id: id), (row["ownerId"] as String).isSameIdentifier(as: userId) { return row }
        return try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM conversation WHERE ownerId = ? AND requestedId = ? ORDER BY createdAt, id LIMIT 1"),
            arguments: [userId, id])
    }

    func conversationRow(_ db: Database, id: String) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM conversation WHERE id = ?"), arguments: [id])
    }

    /// Builds the wire value; a provider typing state already past is reported as nil.
    static func conversation(from row: Row, now: Instant) -> WireConversation {
        let typingUntil = (row["providerTypingUntil"] as Int64?).map(Instant.init(milliseconds:))
        return WireConversation(
            id: row["id"],
            title: row["title"],
            createdAt: Instant(milliseconds: row["createdAt"]),
            updatedAt: Instant(milliseconds: row["updatedAt"]),
            lastSeq: row["lastSeq"],
            lastMessagePreview: row["lastMessagePreview"],
            providerTypingUntil: typingUntil.flatMap { $0 > now ? $0 : nil },
            providerReadSeq: (row["providerReadSeq"] as Int64?).flatMap { $0 > 0 ? $0 : nil })
    }
}
