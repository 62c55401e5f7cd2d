/// The outbox's decisions (D6, D7), without I/O: which message of which
/// conversation goes out next, when a conversation's queue waits for the
/// network, and what fails with a conversation that could not be created.
///
/// Messages of one conversation go out one at a time, in order, each by
/// that conversation's *sender* (a task the client runs). A sender has an
/// id: one started for a previous user (before `reset`) is recognised by
/// it and stops, and what it learns late changes nothing.
struct OutboxMachine: Sendable, Hashable {
    /// A conversation's sender, to start.
    struct Sender: Sendable, Hashable {
        let conversationId: String
        let id: Int
    }

    /// What to do with the message at the head of a queue.
    enum Attempt: Sendable, Hashable {
        /// It is no longer to be sent (sent meanwhile, failed, gone).
        case skip
        /// Offline with automatic resending: the queue waits, in order.
        case waitForNetwork
        /// Offline without automatic resending: it fails at once.
        case failOffline
        /// Send it.
        case send
    }

    /// Per conversation, the ids of the messages waiting, oldest first. The
    /// first is on its way while the conversation's sender runs.
    private(set) var queues: [String: [String]] = [:]
    /// The running sender of each conversation, by its id.
    private(set) var senders: [String: Int] = [:]
    /// Conversations whose queue waits for the network.
    private(set) var paused: Set<String> = []
    private var lastSenderID = 0

    // MARK: Inputs

    /// A message to send, behind the conversation's others: the sender to
    /// start, if the conversation has none running.
    mutating func enqueue(_ messageId: String, in conversationId: String) -> Sender? {
        queues[conversationId, default: []].append(messageId)
        return start(conversationId)
    }

    /// The sender to start for a conversation with messages waiting and no
    /// sender running; nil otherwise.
    mutating func start(_ conversationId: String) -> Sender? {
        guard senders[conversationId] == nil, queues[conversationId]?.isEmpty == false else { return nil }
        lastSenderID += 1
        senders[conversationId] = lastSenderID
        paused.remove(conversationId)
        return Sender(conversationId: conversationId, id: lastSenderID)
    }

    /// The network is back: the senders to start for the queues that waited
    /// for it, by conversation id.
    mutating func networkReturned() -> [Sender] {
        paused.sorted().compactMap { start($0) }
    }

    /// The message `sender` sends next; nil when its queue is empty (the
    /// sender ends) or when it is not the conversation's sender any more.
    mutating func next(_ sender: Sender) -> String? {
        guard isCurrent(sender) else { return nil }
        guard let first = queues[sender.conversationId]?.first else {
            queues[sender.conversationId] = nil
            senders[sender.conversationId] = nil
            return nil
        }
        return first
    }

    /// The head of `sender`'s queue is done with (sent, failed or skipped).
    mutating func finished(_ sender: Sender) {
        guard isCurrent(sender), queues[sender.conversationId]?.isEmpty == false else { return }
        queues[sender.conversationId]?.removeFirst()
    }

    /// The head must wait for the network: the sender ends, and the queue
    /// starts again when the network returns.
    mutating func waitForNetwork(_ sender: Sender) {
        guard isCurrent(sender) else { return }
        senders[sender.conversationId] = nil
        paused.insert(sender.conversationId)
    }

    /// The head's conversation could not be created: the messages waiting
    /// behind it fail too (D4). Returns them, oldest first.
    mutating func creationFailed(_ sender: Sender) -> [String] {
        guard isCurrent(sender), let queue = queues[sender.conversationId], !queue.isEmpty else { return [] }
        queues[sender.conversationId] = [queue[0]]
        return Array(queue.dropFirst())
    }

    /// The user changed: nothing of theirs is sent any more, and their
    /// senders' late results are ignored.
    mutating func reset() {
        queues = [:]
        senders = [:]
        paused = []
    }

    // MARK: Decisions

    /// Whether `sender` is still its conversation's sender (its results count).
    func isCurrent(_ sender: Sender) -> Bool {
        senders[sender.conversationId] == sender.id
    }

    /// What to do with a message at the head of a queue, in `state`.
    static func attempt(state: String, reachable: Bool, autoResend: Bool) -> Attempt {
        guard state == "toBeSent" else { return .skip }
        guard reachable else { return autoResend ? .waitForNetwork : .failOffline }
        return .send
    }

    /// Whether a send that failed goes back to `toBeSent` to wait for the
    /// network (offline, with automatic resending) rather than failing.
    static func waitsForNetwork(afterFailingOffline offline: Bool, autoResend: Bool) -> Bool {
        offline && autoResend
    }
}
