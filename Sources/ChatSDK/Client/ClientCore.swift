internal import ChatCore

/// Everything a client knows and does, isolated to its runtime's executor.
/// The public `ChatClient` is a thin facade over it.
actor ClientCore {
    nonisolated let runtime: any ChatRuntime
    nonisolated var unownedExecutor: UnownedSerialExecutor { runtime.executor.asUnownedSerialExecutor() }

    let configuration: ChatClient.Configuration
    /// This install's device id (C4): the configuration's, or the one kept
    /// beside the cache.
    nonisolated let device: DeviceIdentity
    var deviceId: String { device.id }
    /// Where this client's back-off jitter is drawn from (its runtime's
    /// choice, made once: in the embedded world a stream of its own).
    nonisolated let jitter: RandomSource
    /// The cache the client keeps now (C1): `.memory` while a disk cache
    /// could not be used. In a lock so that the app can ask at any time.
    nonisolated let activeCacheMode: LockedValue<ChatClient.CacheMode>
    let provider: (any SessionTokenProvider)?
    /// The current user's store: a file per client and user with a disk
    /// cache (D2), else in memory.
    var store: LocalStore {
        didSet {
            // What the old store holds for a send's answer is written now,
            // not when the last reference to it goes.
            oldValue.commitHeld()
            reportFailures(of: store)
            let known = ConversationAliases(store.conversationAliases())
            aliases.withLock { $0 = known }
        }
    }
    /// The server's ids of the user's conversations it created under
    /// another id than the app's (kept in `store`). In a lock so that the
    /// app can ask for one without waiting for the client.
    nonisolated let aliases = LockedValue(ConversationAliases())
    var storePath: String?

    /// Who is signed in, how, with which tokens: the session's decisions.
    var machine: SessionMachine
    var userId: String? { machine.userId }
    var tokens: TokenPair? { machine.tokens }
    var session: SessionState { machine.state }
    /// The user as the last sign-in described them.
    var currentUser: ChatUser?
    var authenticationDelegate: (any AuthenticationDelegate)?
    var sessionDelegate: (any SessionDelegate)?
    /// Attributes waiting for the next conversation opened online (A13).
    var pendingAttributes: [String: String] = [:]
    /// `updateData(nil)` was called: the pending attributes replace the
    /// user's (none: they have none left) instead of being merged.
    var pendingAttributesReplace = false
    /// Text the next opened conversation receives in its draft (A13).
    var prefillText: String?
    var pendingProfile: ChatUser?
    var drafts: [String: String] = [:]
    /// Client-wide facts that outlive users: queued logouts (A9). Opened
    /// when first needed (``ClientCore/clientWideStore()``).
    var openedClientStore: LocalStore?
    /// Whether the client-wide store's file was looked for and not found:
    /// only this client makes it (by opening the store), so it is looked
    /// for once, not at every token refresh.
    var clientWideStoreAbsent = false
    var connection: ConnectionState = .disconnected
    /// The session machine's run that callers needing a token share, by its id.
    var authentication: (id: Int, task: Task<String, any Error>)?
    var refreshTimer: Task<Void, Never>?

    var eventSubscribers: [Int: AsyncStream<ChatEvent>.Continuation] = [:]
    var nextSubscriberID = 0

    var watchers: [Int: WatcherEntry] = [:]
    var nextWatcherID = 0

    /// The outbox's queues and decisions (D6, D7).
    var outbox = OutboxMachine()
    /// Per conversation, the wake-up that ends its queue's back-off (D7).
    var resendTimers: [String: Task<Void, Never>] = [:]
    /// The realtime link's decisions, and what the client last heard of
    /// the network (D8): one for the client, started again by each run of
    /// the link (``ClientCore/ensureRealtime()``).
    var link = RealtimeLinkMachine()
    var background = false
    var backoff: Task<Void, any Error>?
    var typingTimers: [String: Task<Void, Never>] = [:]
    var typingRenewals: [String: Task<Void, Never>] = [:]
    var monitor: Task<Void, Never>?

    /// `shutdown()` was called: every later call fails with `clientShutDown` (C1).
    var isShutDown = false

    var realtime: RealtimeConnection?
    var realtimeTask: Task<Void, Never>?
    /// The app's limits on attachments as the server last gave them
    /// (`appLimits`, D6): nil until read before a first upload, and again
    /// after the server refused an upload they let through (they changed).
    var appLimits: WireAppLimits?
    var reconnectAttempt = 0

    init(configuration: ChatClient.Configuration, provider: (any SessionTokenProvider)?) {
        self.configuration = configuration
        self.runtime = configuration.runtime
        self.jitter = configuration.runtime.makeJitterSource()
        self.provider = provider
        self.device = DeviceIdentity.resolve(configuration, generate: DeviceIdentity.generate)
        self.activeCacheMode = LockedValue(configuration.cacheMode)
        self.machine = SessionMachine(hasProvider: provider != nil)
        let store = LocalStore.inMemory()
        self.store = store
        reportFailures(of: store)
    }

    /// A read or write of `store` that fails becomes a warning event:
    /// the SDK carries on from memory, but never silently.
    nonisolated func reportFailures(of store: LocalStore) {
        let runtime = self.runtime
        store.onFailure { [weak self] message in
            runtime.spawn { await self?.publish(.warning(message)) }
        }
    }

    var now: Instant { runtime.now }

    // MARK: Events

    func subscribe(_ continuation: AsyncStream<ChatEvent>.Continuation) {
        // A shut-down client has nothing more to say: the stream ends at once.
        guard !isShutDown else { return continuation.finish() }
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
        configuration.onEvent?(event)
        for id in eventSubscribers.keys.sorted() { eventSubscribers[id]?.yield(event) }
    }

    func setConnection(_ state: ConnectionState) {
        guard state != connection else { return }
        connection = state
        publish(.connectionChanged(state))
    }

    // MARK: Users (A1, A3, A4)

    func setCurrentUser(_ id: String) throws {
        try checkRunning()
        try Self.checkUserId(id)
        switch machine.admits(userId: id, credential: .provider) {
        case .noChange: return
        case .refused(let error): throw error
        case .allowed, .reconfigure: break
        }
        identify(id, .provider)
    }

    /// Starts a session for `user` with `credential`: the user's store opens
    /// and their outbox resumes.
    func identify(_ user: String?, _ credential: Credential) {
        // An anonymous session gives way to the user, however they are set
        // (a login, `setCurrentUser`, `authorize`): it leaves nothing on
        // the device, and its watchers end (A4, A8; the server merges the
        // anonymous user's conversations on a JWT login).
        if machine.credential == .anonymous { clearLocally(reason: nil) }
        // Senders of the previous session stop; the new one's outbox is
        // read from its store (`resumeOutbox`).
        resetOutbox()
        // A realtime link of the previous session (an anonymous user
        // setting who they are) carries that user's events: it closes, and
        // the new session opens its own once signed in. Meanwhile what the
        // watchers show no longer follows the server (D1); they refresh
        // when the new link opens.
        if realtimeTask != nil {
            closeRealtime()
            markWatchersStale()
        }
        // Nor does the previous session go on saying its user is typing.
        stopTypingRenewals()
        // What was under way for the previous session no longer counts.
        perform(machine.identify(userId: user, credential: credential))
        if let user {
            openStore(for: user)
            resumeOutbox()
        }
    }

    static func checkUserId(_ id: String) throws {
        guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
            throw ChatError(.invalidArgument, "A user id must be a non-empty word, got \"\(id)\"")
        }
    }

    /// A4: removes every local trace of the user; the server session and
    /// push subscription stay.
    func clearCurrentUser() {
        guard !isShutDown, machine.credential != nil else { return }
        clearLocally(reason: nil)
    }

    /// Forgets the user on this device: cache, tokens, outbox, prefill;
    /// closes the connection; watchers end with `userCleared`.
    func clearLocally(reason: String?, keepingStore: Bool = false) {
        endUnsentMessages(reason: reason, keptOnDisk: keepingStore && storePath != nil)
        stopWork()
        if !keepingStore {
            store.wipe()
            deleteStoreFile()
        }
        store = LocalStore.inMemory()
        prefillText = nil
        drafts = [:]
        pendingAttributes = [:]
        pendingAttributesReplace = false
        currentUser = nil
        endWatchers(with: ChatError(.userCleared, reason.map { "The user was signed out (\($0))" } ?? "The user was cleared"))
        // Calls and authentications in flight fail as they come back.
        perform(machine.clear())
    }

    /// What the client has going stops: an authentication, the token
    /// refresh and typing timers, typing renewals, the outbox's senders,
    /// the realtime connection. The one teardown of a user's clearing
    /// (``clearLocally(reason:keepingStore:)``) and of ``shutdown()``.
    func stopWork() {
        authentication?.task.cancel()
        authentication = nil
        refreshTimer?.cancel()
        refreshTimer = nil
        for timer in typingTimers.values { timer.cancel() }
        typingTimers = [:]
        resetOutbox()
        stopTypingRenewals()
        closeRealtime()
    }

    /// Every watcher ends with `error`, in the order they were opened.
    func endWatchers(with error: ChatError) {
        for id in watchers.keys.sorted() { watchers[id]?.finish(error) }
        watchers = [:]
    }

    /// The user's messages still on their way when the session ends on this
    /// device reach an end (A6, D6): kept on disk (a disconnect), one being
    /// sent is queued again and goes out at the next connect; otherwise
    /// they go with the user's data, and each is told `failed` with why,
    /// so that no message stays `toBeSent` or `sending` with no end.
    func endUnsentMessages(reason: String?, keptOnDisk: Bool) {
        let unsent = store.unsentMessages()
        guard !unsent.isEmpty else { return }
        if keptOnDisk {
            store.batch {
                for var row in unsent where row.state == .sending {
                    row.state = .toBeSent
                    save(row)
                }
            }
            return
        }
        let why =
            reason.map { "The user was signed out (\($0)) before the message was sent; it was removed with their data" }
            ?? "The user was cleared before the message was sent; it was removed with their data"
        for var row in unsent {
            row.state = .failed
            row.errorCode = ChatError.Code.userCleared.rawValue
            row.errorMessage = why
            publish(.messageStateChanged(message(from: row)))
        }
    }

    func stopTypingRenewals() {
        for renewal in typingRenewals.values { renewal.cancel() }
        typingRenewals = [:]
    }

    /// Throws `clientShutDown` once the client was shut down: a shut-down
    /// client neither signs in, nor sends, nor writes into its cache (C1).
    func checkRunning() throws {
        guard !isShutDown else { throw ChatError(.clientShutDown, "The client was shut down: make a new client") }
    }

    func requireUser() throws -> String {
        guard let userId else { throw ChatError.signInFirst() }
        return userId
    }
}
