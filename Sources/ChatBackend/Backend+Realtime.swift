import ChatCore
import ChatSQLite
import GRDB
import Synchronization

extension Backend {
    /// Realtime (D8). Authenticates with the access token; first delivers (synchronously, in order) every stored event of that user with userSeq > afterUserSeq (nil = none), then every new event as it happens, by calling `sink` synchronously inside the call that produced the event. Events of other users never reach it.
    ///
    /// Authentication fails as ``handle(_:)`` does (`invalidApiKey`,
    /// `invalidToken`, `expiredToken`). The subscription lasts until
    /// ``unsubscribe(_:)``, even if the token later expires, or until the
    /// backend ends it because the token's session closed (logout,
    /// ``revokeTokens(userId:)``, ``revokeCredential(apiKey:token:)``, the
    /// merge of an anonymous user): then `onClose` is called once, with the
    /// reason (code `invalidToken`), and the sink is not called again.
    ///
    /// A sink may call back into the backend; events produced that way are
    /// delivered once the sink returns, still in order. An `afterUserSeq`
    /// beyond the user's newest event counts as the newest.
    package func subscribe(
        apiKey: String, accessToken: String, afterUserSeq: Int64?,
        sink: @escaping @Sendable (WireEvent) -> Void,
        onClose: (@Sendable (WireError) -> Void)? = nil
    ) -> Result<SubscriptionID, WireError> {
        subscribeWithBackpressure(
            apiKey: apiKey, accessToken: accessToken, afterUserSeq: afterUserSeq,
            offer: { event in
                sink(event)
                return true
            }, onClose: onClose)
    }

    /// A subscription whose consumer says when it can take no more:
    /// `offer` returns false for an event its queue has no room for, and
    /// delivery stops there (that event included) until ``resume(_:)``.
    /// Stored events are read a page at a time (``deliveryPageSize``), so a
    /// catch-up over a long history never holds more than a page.
    package func subscribeWithBackpressure(
        apiKey: String, accessToken: String, afterUserSeq: Int64?,
        offer: @escaping @Sendable (WireEvent) -> Bool,
        onClose: (@Sendable (WireError) -> Void)? = nil
    ) -> Result<SubscriptionID, WireError> {
        let caller: Caller
        let latest: Int64
        do throws(WireError) {
            caller = try authenticate(apiKey: apiKey, accessToken: accessToken)
            latest = try read { db in try Self.latestUserSeq(db, userId: caller.userId) }
        } catch {
            return .failure(error)
        }
        let id = state.withLock { state in
            let id = SubscriptionID(rawValue: state.nextSubscription)
            state.nextSubscription += 1
            // A position past the newest event (a client that knew another
            // world) restarts from the newest, so nothing new is skipped.
            let start = min(max(afterUserSeq ?? latest, 0), latest)
            state.subscriptions[id] = Subscription(
                userId: caller.userId, sink: offer, sessionId: caller.sessionId, onClose: onClose,
                lastDelivered: start)
            return id
        }
        deliver(to: id)
        return .success(id)
    }

    /// Delivers again to a subscription whose `offer` refused an event
    /// (its consumer made room). Unknown ids are ignored.
    package func resume(_ id: SubscriptionID) {
        let paused = state.withLock { state -> Bool in
            guard var subscription = state.subscriptions[id] else { return false }
            defer { state.subscriptions[id] = subscription }
            if subscription.isPaused {
                subscription.isPaused = false
                return true
            }
            // A pass still running (perhaps about to pause): it looks again.
            if subscription.isDelivering { subscription.needsAnotherPass = true }
            return false
        }
        if paused { deliver(to: id) }
    }

    /// How many stored events a delivery reads at once.
    package static let deliveryPageSize = 200

    /// Ends a subscription; its sink is not called again. Unknown ids are ignored.
    package func unsubscribe(_ id: SubscriptionID) {
        _ = state.withLock { $0.subscriptions.removeValue(forKey: id) }
    }

    /// Ends the subscriptions that `matches` selects and tells each `onClose`
    /// the reason, outside the lock (an `onClose` may call the backend).
    func closeSubscriptions(reason: WireError, where matches: (Subscription, SubscriptionID) -> Bool) {
        let closed = state.withLock { state -> [Subscription] in
            let ids = state.subscriptions.ids(where: matches)
            return ids.compactMap { state.subscriptions.removeValue(forKey: $0) }
        }
        for subscription in closed { subscription.onClose?(reason) }
    }

    /// The userSeq of the newest event of a user (0 when none).
    package func latestUserSeq(userId: String) -> Int64 {
        (try? read { db in try Self.latestUserSeq(db, userId: userId) }) ?? 0
    }

    /// Stored events of a user with userSeq > `afterUserSeq`, in order (for the workbench).
    package func events(userId: String, afterUserSeq: Int64 = 0) -> [WireEvent] {
        (try? read { db in try events(db, userId: userId, after: afterUserSeq) }) ?? []
    }

    /// The number of live subscriptions of a user (the workbench's view of realtime connections).
    package func subscriptionCount(userId: String) -> Int {
        state.withLock { $0.subscriptions.ids(ofUser: userId).count }
    }

    // MARK: Storing and delivering

    /// Records an event for `userId` with the next userSeq. Called inside the
    /// write transaction that produced the event; ``deliverEvents(userId:)``
    /// hands it to subscribers after the commit.
    ///
    /// `userSeq`: the event's, when the caller knows it (the event after
    /// one it appended in the same transaction); else the user's next.
    /// `conversationKey`: for `messageCreated`, the key of the message's
    /// conversation (``AppKey``; the message holds the id its app sees).
    @discardableResult
    func appendEvent(
        _ db: Database, userId: String, kind: WireEvent.Kind, now: Instant, userSeq: Int64? = nil, conversationKey: String? = nil
    ) throws -> WireEvent {
        let event = WireEvent(userSeq: try userSeq ?? Self.latestUserSeq(db, userId: userId) + 1, kind: kind)
        let key: String
        if case .messageCreated(let message) = kind {
            // The message is in the message table (written just before):
            // the event names it.
            guard let conversationKey else { throw WireError(.internalError, "A messageCreated event needs its conversation's key") }
            key = Self.messageReferenceKey(conversationId: conversationKey, seq: message.seq)
            try db.cachedStatement(
                sql: """
                    INSERT INTO event (userId, userSeq, kind, createdAt, messageConversationId, messageSeq) VALUES (?, ?, ?, ?, ?, ?)
                    """
            )
            .run(
                .text(userId), .int(event.userSeq), .text(Self.messageReferenceKind), .int(now.milliseconds), .text(conversationKey),
                .int(message.seq))
        } else {
            if case .conversationUpdated(let conversation) = kind {
                key = try Self.encode(StoredConversationUpdate(conversation: conversation))
            } else {
                key = try Self.encode(kind)
            }
            try db.cachedStatement(sql: "INSERT INTO event (userId, userSeq, kind, createdAt) VALUES (?, ?, ?, ?)")
                .run(.text(userId), .int(event.userSeq), .text(key), .int(now.milliseconds))
        }
        recentEventKinds.withLock { recent in
            if recent.count >= 256 { recent.removeAll() }
            recent[ExactKey(key)] = kind
        }
        if case .messageCreated(let message) = kind { try logPushes(db, userId: userId, message: message, now: now) }
        return event
    }

    /// Gives every subscription of `userId` the events it has not seen yet.
    func deliverEvents(userId: String) {
        let ids = state.withLock { $0.subscriptions.ids(ofUser: userId) }
        for id in ids { deliver(to: id) }
    }

    /// Delivers pending events to one subscription, outside any lock and any
    /// database access, so that a sink may call the backend again.
    private func deliver(to id: SubscriptionID) {
        // Claim the subscription, or ask whoever holds it to look again.
        let claimed: Bool = state.withLock { state in
            guard var subscription = state.subscriptions[id], !subscription.isPaused else { return false }
            if subscription.isDelivering {
                subscription.needsAnotherPass = true
                state.subscriptions[id] = subscription
                return false
            }
            subscription.isDelivering = true
            state.subscriptions[id] = subscription
            return true
        }
        guard claimed else { return }
        while true {
            guard
                let (userId, after, sink) = state.withLock({ state in
                    state.subscriptions[id].map { ($0.userId, $0.lastDelivered, $0.sink) }
                })
            else { return }
            let page = (try? read { db in try events(db, userId: userId, after: after, limit: Self.deliveryPageSize) }) ?? []
            var refused = false
            for event in page {
                // Stop at once if the sink unsubscribed.
                let previous: Int64? = state.withLock { state in
                    guard let previous = state.subscriptions[id]?.lastDelivered else { return nil }
                    state.subscriptions[id]!.lastDelivered = event.userSeq
                    return previous
                }
                guard let previous else { return }
                if !sink(event) {
                    // The consumer is full: this event is delivered again on resume.
                    state.withLock { $0.subscriptions[id]?.lastDelivered = previous }
                    refused = true
                    break
                }
            }
            let done = state.withLock { state in
                guard var subscription = state.subscriptions[id] else { return true }
                if subscription.needsAnotherPass {
                    // New events, or a resume that came while this pass was refused.
                    subscription.needsAnotherPass = false
                    state.subscriptions[id] = subscription
                    return false
                }
                if refused {
                    subscription.isPaused = true
                } else if page.count == Self.deliveryPageSize {
                    // A full page: there may be more.
                    return false
                }
                subscription.isDelivering = false
                state.subscriptions[id] = subscription
                return true
            }
            if done { return }
        }
    }

    static func latestUserSeq(_ db: Database, userId: String) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(userSeq) FROM event WHERE userId = ?"), arguments: [userId]) ?? 0
    }

    func events(_ db: Database, userId: String, after: Int64, limit: Int = -1) throws -> [WireEvent] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT e.userSeq, e.kind, e.messageConversationId, e.messageSeq,
                        m.id, m.conversationId, m.seq, m.author, m.content, m.replyTo, m.createdAt
                    FROM event e LEFT JOIN message m ON m.conversationId = e.messageConversationId AND m.seq = e.messageSeq
                    WHERE e.userId = ? AND e.userSeq > ? ORDER BY e.userSeq LIMIT ?
                    """),
            arguments: [userId, after, limit]
        )
        .map { row in WireEvent(userSeq: row["userSeq"], kind: try decodedEventKind(row)) }
    }

    /// `event.kind` of a `messageCreated` event that names its message.
    static let messageReferenceKind = "messageCreated"

    static func messageReferenceKey(conversationId: String, seq: Int64) -> String {
        "\(messageReferenceKind) \(seq) \(conversationId)"
    }

    /// The kind of an event row of `events(_:userId:after:)`: its JSON, or
    /// the message it names.
    func decodedEventKind(_ row: Row) throws -> WireEvent.Kind {
        let kind: String = row["kind"]
        guard kind == Self.messageReferenceKind, let conversationId: String = row["messageConversationId"],
            let seq: Int64 = row["messageSeq"]
        else { return try decodedEventKind(kind) }
        if let known = recentEventKinds.withLock({ $0[ExactKey(Self.messageReferenceKey(conversationId: conversationId, seq: seq))] }) {
            return known
        }
        guard row["id"] as String? != nil else {
            throw WireError(.internalError, "Event names message \(seq) of \(conversationId), which is not stored")
        }
        return .messageCreated(try Self.message(from: row))
    }

    func decodedEventKind(_ json: String) throws -> WireEvent.Kind {
        if let known = recentEventKinds.withLock({ $0[ExactKey(json)] }) { return known }
        if json.hasPrefix("[") { return .conversationUpdated(try Self.decode(StoredConversationUpdate.self, from: json).conversation) }
        return try Self.decode(WireEvent.Kind.self, from: json)
    }
}

/// How the event log keeps a `conversationUpdated` event: the
/// conversation's fields in a fixed order after a tag, a JSON array
/// (`["conversationUpdated","c1",null,1767225600000,…]`), about half
/// the keyed JSON of `WireEvent.Kind` (issue 17: one is logged with every
/// message). Rows written before keep the keyed JSON, which still decodes.
struct StoredConversationUpdate: Codable {
    static let tag = "conversationUpdated"
    var conversation: WireConversation

    init(conversation: WireConversation) { self.conversation = conversation }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        let c = conversation
        try fields.encode(Self.tag)
        try fields.encode(c.id)
        if let title = c.title { try fields.encode(title) } else { try fields.encodeNil() }
        try fields.encode(c.createdAt.milliseconds)
        try fields.encode(c.updatedAt.milliseconds)
        try fields.encode(c.lastSeq)
        if let preview = c.lastMessagePreview { try fields.encode(preview) } else { try fields.encodeNil() }
        if let until = c.providerTypingUntil { try fields.encode(until.milliseconds) } else { try fields.encodeNil() }
        if let read = c.providerReadSeq { try fields.encode(read) } else { try fields.encodeNil() }
    }

    init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        guard try fields.decode(String.self) == Self.tag else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "not a stored conversationUpdated event")
        }
        let id = try fields.decode(String.self)
        let title = try fields.decodeNil() ? nil : try fields.decode(String.self)
        let createdAt = Instant(milliseconds: try fields.decode(Int64.self))
        let updatedAt = Instant(milliseconds: try fields.decode(Int64.self))
        let lastSeq = try fields.decode(Int64.self)
        let preview = try fields.decodeNil() ? nil : try fields.decode(String.self)
        let until = try fields.decodeNil() ? nil : Instant(milliseconds: try fields.decode(Int64.self))
        let read = try fields.decodeNil() ? nil : try fields.decode(Int64.self)
        conversation = WireConversation(
            id: id, title: title, createdAt: createdAt, updatedAt: updatedAt, lastSeq: lastSeq, lastMessagePreview: preview,
            providerTypingUntil: until, providerReadSeq: read)
    }
}
