/// Everything a client knows and does, isolated to its runtime's executor.
/// The public `ChatClient` is a thin facade over it.
actor ClientCore {
    nonisolated let runtime: any ChatRuntime
    nonisolated var unownedExecutor: UnownedSerialExecutor { runtime.executor.asUnownedSerialExecutor() }

    let configuration: ChatClient.Configuration
    let provider: (any SessionTokenProvider)?
    /// The current user's store: a file per client and user with a disk
    /// cache (D2), else in memory.
    var store: LocalStore
    var storePath: String?

    var userId: String?
    /// Bumped when the user changes, so work started for a previous user
    /// drops its results.
    var generation = 0
    var session: SessionState = .signedOut
    var connection: ConnectionState = .disconnected
    var tokens: TokenPair?
    var authentication: (id: Int, task: Task<String, any Error>)?
    var nextAuthenticationID = 0
    var refreshTimer: Task<Void, Never>?

    var eventSubscribers: [Int: AsyncStream<ChatEvent>.Continuation] = [:]
    var nextSubscriberID = 0

    var watchers: [Int: WatcherEntry] = [:]
    var nextWatcherID = 0

    var sendQueues: [String: [String]] = [:]
    /// Conversations whose queue is being sent right now.
    var activeSenders: Set<String> = []
    /// Conversations whose queue waits for the network (D7).
    var pausedQueues: Set<String> = []
    var reachable = true
    var background = false
    var backoff: Task<Void, any Error>?
    var typingTimers: [String: Task<Void, Never>] = [:]
    var typingRenewals: [String: Task<Void, Never>] = [:]
    var monitor: Task<Void, Never>?

    var realtime: RealtimeConnection?
    var realtimeTask: Task<Void, Never>?
    var reconnectAttempt = 0

    init(configuration: ChatClient.Configuration, provider: (any SessionTokenProvider)?) {
        self.configuration = configuration
        self.runtime = configuration.runtime
        self.provider = provider
        // An in-memory store cannot fail to open.
        self.store = try! LocalStore(path: nil)
    }

    var now: Instant { runtime.now }

    // MARK: Events

    func subscribe(_ continuation: AsyncStream<ChatEvent>.Continuation) {
        let id = nextSubscriberID
        nextSubscriberID += 1
        eventSubscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.runtime.spawn { await self.unsubscribe(id) }
        }
    }

    func unsubscribe(_ id: Int) { eventSubscribers[id] = nil }

    func publish(_ event: ChatEvent) {
        for id in eventSubscribers.keys.sorted() { eventSubscribers[id]?.yield(event) }
    }

    func setSession(_ state: SessionState) {
        guard state != session else { return }
        session = state
        publish(.sessionChanged(state))
    }

    func setConnection(_ state: ConnectionState) {
        guard state != connection else { return }
        connection = state
        publish(.connectionChanged(state))
    }

    // MARK: Users (A1, A3, A4)

    func setCurrentUser(_ id: String) throws {
        guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
            throw ChatError(.invalidArgument, "A user id must be a non-empty word, got \"\(id)\"")
        }
        if let current = userId {
            if current == id { return }
            throw ChatError(.currentUserAlreadySet, "User \(current) is already set: call clearCurrentUser() before setting \(id)")
        }
        userId = id
        generation += 1
        openStore(for: id)
        setSession(.userSet(userId: id))
        resumeOutbox()
    }

    func clearCurrentUser() {
        guard userId != nil else { return }
        generation += 1
        userId = nil
        tokens = nil
        authentication?.task.cancel()
        authentication = nil
        refreshTimer?.cancel()
        refreshTimer = nil
        for timer in typingTimers.values { timer.cancel() }
        typingTimers = [:]
        sendQueues = [:]
        activeSenders = []
        pausedQueues = []
        for renewal in typingRenewals.values { renewal.cancel() }
        typingRenewals = [:]
        closeRealtime()
        store.wipe()
        deleteStoreFile()
        let cleared = ChatError(.userCleared, "The user was cleared")
        for id in watchers.keys.sorted() { watchers[id]?.finish(cleared) }
        watchers = [:]
        setSession(.signedOut)
    }

    func requireUser() throws -> String {
        guard let userId else { throw ChatError.notAuthenticated() }
        return userId
    }

    func checkGeneration(_ expected: Int) throws {
        guard generation == expected else { throw ChatError(.userCleared, "The user changed while the call was in flight") }
    }
}
