import ChatCore
import ChatSQLite
import Foundation
import GRDB
import Synchronization

extension Backend {
    /// Longest text message accepted, in characters.
    static let maxTextLength = 10_000

    /// Messages of a conversation, newest first (by seq), cursor-paginated.
    func listMessages(_ caller: Caller, conversationId: String, cursor: String?, limit: Int) throws(WireError) -> WirePage<WireMessage> {
        let limit = PageCursor.clamp(limit)
        var beforeSeq = Int64.max
        if let cursor {
            guard case .messages(let seq) = try PageCursor(decoding: cursor) else {
                throw WireError(.badRequest, "The cursor is not a message cursor")
            }
            beforeSeq = seq
        }
        return try read { db in
            let conversationId: String = try ownedConversationRow(db, id: conversationId, caller: caller)["id"]
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM message WHERE conversationId = ? AND seq < ? ORDER BY seq DESC LIMIT ?
                        """), arguments: [conversationId, beforeSeq, limit + 1])
            let elements = try rows.prefix(limit).map(Self.message(from:))
            let next = rows.count > limit ? elements.last.map { PageCursor.messages(beforeSeq: $0.seq).encoded } : nil
            return WirePage(elements: elements, nextCursor: next)
        }
    }

    /// Messages with `seq > afterSeq`, oldest first. `nextCursor` is non-nil
    /// when more remain: the last element's seq, to ask again with.
    func messagesSince(_ caller: Caller, conversationId: String, afterSeq: Int64, limit: Int) throws(WireError) -> WirePage<WireMessage> {
        let limit = PageCursor.clamp(limit)
        return try read { db in
            let conversationId: String = try ownedConversationRow(db, id: conversationId, caller: caller)["id"]
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM message WHERE conversationId = ? AND seq > ? ORDER BY seq ASC LIMIT ?
                        """), arguments: [conversationId, afterSeq, limit + 1])
            let elements = try rows.prefix(limit).map(Self.message(from:))
            let next = rows.count > limit ? elements.last.map { Self.sinceCursor(after: $0.seq) } : nil
            return WirePage(elements: elements, nextCursor: next)
        }
    }

    /// Sends a message from the caller, creating the conversation first when
    /// asked to; idempotent on the message id and on the conversation id.
    func sendMessage(_ caller: Caller, conversationId: String, create: NewConversation?, message: NewMessage) throws(WireError) -> (
        WireConversation, WireMessage
    ) {
        try Self.validateIdentifier(conversationId, what: "conversation id")
        try Self.validateIdentifier(message.id, what: "message id")
        if let replyTo = message.replyTo { try Self.validateIdentifier(replyTo, what: "replied message id") }
        try Self.validateForm(message.content)
        if let title = create?.title, title.unicodeScalars.count > 1_000 {
            throw WireError(.badRequest, "The conversation title is longer than 1000 characters")
        }
        let now = environment.now()
        let (conversation, sent, delivered) = try write { db -> (WireConversation, WireMessage, Bool) in
            let row = try conversationToSendTo(db, requestedId: conversationId, create: create, caller: caller, now: now)
            let conversationId: String = row["id"]
            if let stored = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM message WHERE conversationId = ? AND id = ?"),
                arguments: [conversationId, message.id])
            {
                return (Self.conversation(from: row, now: now), try Self.message(from: stored), false)
            }
            try Self.validate(message.content, settings: caller.settings)
            try bindAttachment(db, content: message.content, conversationId: conversationId, caller: caller)
            // A reply names a message of the same conversation.
            if let replyTo = message.replyTo,
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT 1 FROM message WHERE conversationId = ? AND id = ?"),
                    arguments: [conversationId, replyTo]) != true
            {
                throw WireError(
                    .unknownMessage, "replyTo names no message of the conversation: \(String(replyTo.prefix(40)).debugDescription)")
            }
            let (conversation, sent) = try appendMessage(
                db, conversation: row, id: message.id, author: .user(id: caller.wireUserId),
                content: message.content, replyTo: message.replyTo, now: now)
            return (conversation, sent, true)
        }
        if delivered { deliverEvents(userId: caller.userId) }
        return (conversation, sent)
    }

    /// The conversation a send goes to. `requestedId` is the caller's own,
    /// one it created earlier under that id (also when the server had to mint
    /// another), or, with `create`, a new one: under `requestedId`, or under
    /// an id the server mints when another user of the app already holds it.
    /// Ids are chosen by clients and per app (``AppKey``): no user can squat
    /// another's, and an id another app holds is stored under a key scoped
    /// to the caller's app, which the caller cannot tell from a new id.
    private func conversationToSendTo(
        _ db: Database, requestedId: String, create: NewConversation?, caller: Caller, now: Instant
    ) throws -> Row {
        if let row = try callerConversationRow(db, id: requestedId, caller: caller) { return row }
        let heldInApp = try conversationKey(db, apiKey: caller.apiKey, id: requestedId) != nil
        guard let create else {
            if heldInApp { throw WireError(.forbidden, "The conversation belongs to another user") }
            throw WireError(.unknownConversation)
        }
        var id = requestedId
        if heldInApp {
            repeat { id = environment.makeID("c-") } while try conversationRow(db, id: id) != nil
        } else if try conversationRow(db, id: id) != nil {
            id = AppKey.scoped(requestedId, apiKey: caller.apiKey)
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO conversation (id, ownerId, title, createdAt, updatedAt, requestedId) VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, caller.userId, create.title, now.milliseconds, now.milliseconds,
            AppKey.visible(id).isSameIdentifier(as: requestedId) ? nil : requestedId,
        ])
        guard let row = try conversationRow(db, id: id) else { throw WireError(.internalError, "The new conversation is missing") }
        return row
    }

    /// Messages of the conversation with key `conversationId` (``AppKey``),
    /// oldest first (for the workbench). Throws `unknownConversation` when
    /// there is no such conversation.
    package func messages(conversationId: String) throws(WireError) -> [WireMessage] {
        try read { db in
            guard try conversationRow(db, id: conversationId) != nil else { throw WireError(.unknownConversation) }
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM message WHERE conversationId = ? ORDER BY seq"), arguments: [conversationId]
            )
            .map(Self.message(from:))
        }
    }

    // MARK: Helpers

    /// Stores a new message at `lastSeq + 1`, updates the conversation and
    /// records `messageCreated` then `conversationUpdated` for its owner.
    /// Callers deliver the events after the transaction commits.
    func appendMessage(
        _ db: Database, conversation row: Row, id: String, author: WireAuthor, content: WireContent,
        replyTo: String?, now: Instant, clearProviderTyping: Bool = false
    ) throws -> (WireConversation, WireMessage) {
        let conversationId: String = row["id"]
        let ownerId: String = row["ownerId"]
        let seq = (row["lastSeq"] as Int64) + 1
        let message = WireMessage(
            id: id, conversationId: AppKey.visible(conversationId), seq: seq, author: author, content: content, replyTo: replyTo,
            createdAt: now)
        try db.cachedStatement(
            sql: """
                INSERT INTO message (conversationId, id, seq, author, content, replyTo, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).run(
            .text(conversationId), .text(id), .int(seq), .text(try Self.encodedAuthor(author)), .text(try Self.encode(content)),
            .text(replyTo), .int(now.milliseconds))
        try db.cachedStatement(
            sql: """
                UPDATE conversation SET lastSeq = ?, updatedAt = ?, lastMessagePreview = ?,
                    providerTypingUntil = CASE WHEN ? THEN NULL ELSE providerTypingUntil END
                WHERE id = ?
                """
        ).run(.int(seq), .int(now.milliseconds), .text(Self.preview(of: content)), .bool(clearProviderTyping), .text(conversationId))
        // The conversation as updated, from the row read in this transaction
        // and what the UPDATE set: reading it again (or UPDATE … RETURNING)
        // cost more than the rest of the statement (issue 17).
        var conversation = Self.conversation(from: row, now: now)
        conversation.lastSeq = seq
        conversation.updatedAt = now
        conversation.lastMessagePreview = Self.preview(of: content)
        if clearProviderTyping { conversation.providerTypingUntil = nil }
        let created = try appendEvent(db, userId: ownerId, kind: .messageCreated(message), now: now, conversationKey: conversationId)
        try appendEvent(db, userId: ownerId, kind: .conversationUpdated(conversation), now: now, userSeq: created.userSeq + 1)
        return (conversation, message)
    }

    /// The JSON of an author: the same few authors write most messages.
    private static let authorJSON = Mutex<[WireAuthor: String]>([:])

    static func encodedAuthor(_ author: WireAuthor) throws -> String {
        if let known = authorJSON.withLock({ $0[author] }) { return known }
        let json = try encode(author)
        authorJSON.withLock { memo in
            if memo.count >= 256 { memo.removeAll() }
            memo[author] = json
        }
        return json
    }

    /// Checks a message's content against the app's settings.
    static func validate(_ content: WireContent, settings: AppSettings) throws(WireError) {
        try validateForm(content)
        guard case .attachment(_, let mimeType, let size, _, _) = content else { return }
        try checkLimits(mimeType: mimeType, size: size, settings: settings)
    }

    /// What a content must be whatever the app's settings: the limits
    /// docs/openapi.json's schema states. Checked on every send, a resend of
    /// a stored message id too (issue 26: a resend with a malformed content
    /// was answered 200 with the stored message); the settings' limits only
    /// bind a new message.
    static func validateForm(_ content: WireContent) throws(WireError) {
        switch content {
        case .text(let text):
            // Lengths count Unicode scalars, white space is Unicode's
            // White_Space: what docs/openapi.json's maxLength and pattern mean.
            guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
                throw WireError(.badRequest, "The message text is empty")
            }
            guard text.unicodeScalars.count <= maxTextLength else {
                throw WireError(.badRequest, "The message text is longer than \(maxTextLength) characters")
            }
        case .attachment(_, _, let size, let fileName, let id):
            guard size >= 0 else { throw WireError(.badRequest, "The attachment size is negative") }
            if let id { try validateIdentifier(id, what: "attachment id") }
            if let fileName, fileName.unicodeScalars.count > 1_024 {
                throw WireError(.badRequest, "The attachment file name is longer than 1024 characters")
            }
        }
    }

    /// The conversation list's preview of a message.
    static func preview(of content: WireContent) -> String {
        switch content {
        case .text(let text):
            text.count > 140 ? String(text.prefix(140)) + "…" : text
        case .attachment(let kind, _, _, let fileName, _):
            fileName.map { "[\(kind.rawValue)] \($0)" } ?? "[\(kind.rawValue)]"
        }
    }

    static func message(from row: Row) throws -> WireMessage {
        WireMessage(
            id: row["id"],
            conversationId: AppKey.visible(row["conversationId"] as String),
            seq: row["seq"],
            author: try decode(WireAuthor.self, from: row["author"]),
            content: try decode(WireContent.self, from: row["content"]),
            replyTo: row["replyTo"],
            createdAt: Instant(milliseconds: row["createdAt"]))
    }
}
