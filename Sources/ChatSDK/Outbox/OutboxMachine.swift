/// The outbox's decisions (D6, D7), without I/O: which message of which
/// conversation goes out next, when a conversation's queue waits for the
/// network or backs off, and what fails with a conversation that could not
/// be created.
///
/// A send that fails is classified once (``Failure``, from the error's
/// code, the same in both modes): a *retryable* failure (offline, lost on
/// the way, the server unavailable or busy) leaves the message `toBeSent`
/// at the head of its queue, and the queue goes again after a back-off
/// (1 s, 2 s, 4 s… up to 30 s, with jitter; at least what `Retry-After`
/// asked), or at once when the realtime connection opens again; offline,
/// it waits for the network instead. Only a *final* failure (the server
/// refused the message), or any failure with `autoResend` off, fails it.
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
    /// Conversations whose queue backs off after a retryable failure, with
    /// the id of the wake-up that ends it.
    private(set) var backingOff: [String: Int] = [:]
    /// Per conversation, the retryable failures of its head in a row.
    private(set) var failures: [String: Int] = [:]
    /// Whether the device has a network, as the outbox last heard
    /// (``networkWent()``, ``networkReturned()``). A reset keeps it: the
    /// network is the device's, not the user's.
    private(set) var reachable = true
    private var lastSenderID = 0
    private var lastWakeID = 0

    /// How a failed send is classified (D7).
    enum Failure: Sendable, Hashable {
        /// The device has no network.
        case offline
        /// Lost on the way, or the server unavailable or busy: it may go
        /// through if sent again, no sooner than `after` when the server said.
        case retryable(after: Duration?)
        /// The server refused it, or it cannot be sent as it is.
        case final

        /// The classification of an error of a send: by its code, which
        /// both modes' transports produce alike.
        init(_ error: ChatError) {
            switch error.code {
            case .offline: self = .offline
            case let code where code.isRetryable: self = .retryable(after: error.retryAfter)
            default: self = .final
            }
        }
    }

    /// What a failed send leads to.
    enum Outcome: Sendable, Hashable {
        /// The message fails with the reason; the queue goes on.
        case fail
        /// The message stays `toBeSent`; the queue waits for the network.
        case waitForNetwork
        /// The message stays `toBeSent`; the queue goes again when `wake`
        /// comes, `delay` from now, or when the realtime connection opens.
        case backOff(delay: Duration, wake: Wake)
    }

    /// The end of a conversation's back-off, recognised by its id.
    struct Wake: Sendable, Hashable {
        let conversationId: String
        let id: Int
    }

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
        guard senders[conversationId] == nil, backingOff[conversationId] == nil, queues[conversationId]?.isEmpty == false
        else { return nil }
        lastSenderID += 1
        senders[conversationId] = lastSenderID
        paused.remove(conversationId)
        return Sender(conversationId: conversationId, id: lastSenderID)
    }

    /// The network went: a head waits for it (or fails, without automatic
    /// resending) instead of going out.
    mutating func networkWent() {
        reachable = false
    }

    /// The network is back: the senders to start for the queues that waited
    /// for it, by conversation id.
    mutating func networkReturned() -> [Sender] {
        reachable = true
        return paused.sorted().compactMap { start($0) }
    }

    /// A back-off ended: the sender to start, when `wake` is still the
    /// conversation's (not ended early, not from before a reset).
    mutating func wake(_ wake: Wake) -> Sender? {
        guard backingOff[wake.conversationId] == wake.id else { return nil }
        backingOff[wake.conversationId] = nil
        return start(wake.conversationId)
    }

    /// The realtime connection opened: the server is there, so every queue
    /// that backs off or waits for the network goes again at once, by
    /// conversation id. Their wake-ups are void.
    mutating func linkOpened() -> [Sender] {
        let waiting = Set(backingOff.keys).union(paused).sorted()
        backingOff = [:]
        return waiting.compactMap { start($0) }
    }

    /// A send of `sender`'s head failed with `failure`: what happens to the
    /// message and its queue. `reachableNow` is what the transport says of
    /// the network at this moment, when it can tell (a connection cut by
    /// going offline): it beats what the outbox last heard. `fraction`
    /// (jitter, in [0, 1)) is drawn only for a back-off.
    mutating func failed(
        _ sender: Sender, with failure: Failure, reachableNow: Bool? = nil, autoResend: Bool, fraction: () -> Double
    ) -> Outcome {
        guard autoResend, isCurrent(sender) else { return .fail }
        switch failure {
        case .final:
            return .fail
        case .offline where !(reachableNow ?? reachable):
            waitForNetwork(sender)
            return .waitForNetwork
        case .offline:
            // Offline for this request although the device has a network
            // (as far as it knows): the network will not say it returned,
            // so back off as for any loss.
            return backOff(sender, retryAfter: nil, fraction: fraction)
        case .retryable(let after):
            return backOff(sender, retryAfter: after, fraction: fraction)
        }
    }

    private mutating func backOff(_ sender: Sender, retryAfter: Duration?, fraction: () -> Double) -> Outcome {
        let conversationId = sender.conversationId
        let attempt = failures[conversationId, default: 0]
        failures[conversationId] = attempt + 1
        senders[conversationId] = nil
        lastWakeID += 1
        backingOff[conversationId] = lastWakeID
        let delay = max(RealtimeLinkMachine.backoff(attempt: attempt, fraction: fraction()), retryAfter ?? .zero)
        return .backOff(delay: delay, wake: Wake(conversationId: conversationId, id: lastWakeID))
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
        failures[sender.conversationId] = nil
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
        backingOff = [:]
        failures = [:]
    }

    // MARK: Decisions

    /// Whether `sender` is still its conversation's sender (its results count).
    func isCurrent(_ sender: Sender) -> Bool {
        senders[sender.conversationId] == sender.id
    }

    /// What to do with a message at the head of a queue, in `state`, with
    /// the network as the outbox last heard.
    func attempt(state: SendState.Kind, autoResend: Bool) -> Attempt {
        guard state == .toBeSent else { return .skip }
        guard reachable else { return autoResend ? .waitForNetwork : .failOffline }
        return .send
    }
}
