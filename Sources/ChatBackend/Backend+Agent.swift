import ChatCore
import GRDB

extension Backend {
    /// The other side (S2): a provider or agent says something in a conversation.
    ///
    /// The message gets an id from `makeID("msg-")` and author
    /// `.provider(name: agentName)`; the agent's typing state ends. The owner
    /// receives `messageCreated` then `conversationUpdated`.
    /// Throws `unknownConversation` or, for empty or oversized text, `badRequest`.
    /// `conversationId` is the conversation's key (``AppKey``); ``AppScope`` takes an app's id.
    @discardableResult
    package func agentSay(conversationId: String, text: String, agentName: String = "agent") throws(WireError) -> WireMessage {
        let conversationId = Identifier.normalized(conversationId)
        let content = WireContent.text(text)
        let now = environment.now()
        let (ownerId, message) = try write { db -> (String, WireMessage) in
            guard let row = try conversationRow(db, id: conversationId) else { throw WireError(.unknownConversation) }
            try Self.validate(content, settings: try Self.appSettings(db, apiKey: try ownerApp(db, conversation: row)))
            var id = environment.makeID("msg-")
            var attempts = 0
            while try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM message WHERE conversationId = ? AND id = ?"), arguments: [conversationId, id])
                == true
            {
                attempts += 1
                guard attempts < 16 else { throw WireError(.internalError, "Could not generate a unique message id") }
                id = environment.makeID("msg-")
            }
            let (_, message) = try appendMessage(
                db, conversation: row, id: id, author: .provider(name: agentName),
                content: content, replyTo: nil, now: now, clearProviderTyping: true)
            return (row["ownerId"], message)
        }
        deliverEvents(userId: ownerId)
        return message
    }

    /// The other side (S2): a provider starts or stops typing (D9).
    ///
    /// On: the conversation's `providerTypingUntil` becomes now + the app's
    /// `typingTTL`, and the owner receives `typing(until:)`. Off: it is
    /// cleared and the owner receives `typing(until: nil)`.
    /// Throws `unknownConversation`.
    /// `conversationId` is the conversation's key (``AppKey``); ``AppScope`` takes an app's id.
    package func agentTyping(conversationId: String, isTyping: Bool, agentName: String = "agent") throws(WireError) {
        let conversationId = Identifier.normalized(conversationId)
        let now = environment.now()
        let ownerId = try write { db -> String in
            guard let row = try conversationRow(db, id: conversationId) else { throw WireError(.unknownConversation) }
            let settings = try Self.appSettings(db, apiKey: try ownerApp(db, conversation: row))
            let until = isTyping ? now.adding(settings.typingTTL) : nil
            try db.cachedStatement(sql: "UPDATE conversation SET providerTypingUntil = ? WHERE id = ?").execute(arguments: [
                until?.milliseconds, conversationId,
            ])
            let ownerId: String = row["ownerId"]
            try appendEvent(
                db, userId: ownerId, kind: .typing(conversationId: AppKey.visible(conversationId), providerName: agentName, until: until),
                now: now)
            return ownerId
        }
        deliverEvents(userId: ownerId)
    }

    /// The other side (S2): a provider reads the conversation up to its newest message.
    ///
    /// The backend records the read position and the owner receives
    /// `conversationUpdated` with it (`providerReadSeq`), so that the
    /// messages it covers show as read. Throws `unknownConversation`.
    /// `conversationId` is the conversation's key (``AppKey``); ``AppScope`` takes an app's id.
    package func agentRead(conversationId: String, agentName: String = "agent") throws(WireError) {
        let conversationId = Identifier.normalized(conversationId)
        let now = environment.now()
        let ownerId = try write { db -> String in
            guard try conversationRow(db, id: conversationId) != nil else { throw WireError(.unknownConversation) }
            try db.cachedStatement(sql: "UPDATE conversation SET providerReadSeq = lastSeq WHERE id = ?").execute(arguments: [
                conversationId
            ])
            guard let row = try conversationRow(db, id: conversationId) else { throw WireError(.unknownConversation) }
            let ownerId: String = row["ownerId"]
            try appendEvent(db, userId: ownerId, kind: .conversationUpdated(Self.conversation(from: row, now: now)), now: now)
            return ownerId
        }
        deliverEvents(userId: ownerId)
    }

    /// The seq of the newest message a provider has read (0 when none). Throws `unknownConversation`.
    /// `conversationId` is the conversation's key (``AppKey``); ``AppScope`` takes an app's id.
    package func providerReadSeq(conversationId: String) throws(WireError) -> Int64 {
        try read { db in
            guard let row = try conversationRow(db, id: conversationId) else { throw WireError(.unknownConversation) }
            return row["providerReadSeq"]
        }
    }

    func ownerApp(_ db: Database, conversation row: Row) throws -> String {
        guard
            let apiKey = try String.fetchOne(
                db.cachedStatement(sql: "SELECT apiKey FROM user WHERE id = ?"), arguments: [row["ownerId"] as String])
        else {
            throw WireError(.internalError, "The conversation's owner is missing")
        }
        return apiKey
    }
}
