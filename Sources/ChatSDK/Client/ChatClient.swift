internal import ChatCore
import Foundation

/// A chat client: one user, one session, one cache, one connection (C1, C2).
///
/// ```swift
/// let client = ChatClient(configuration: config, tokenProvider: MyProvider())
/// try await client.setCurrentUser(userId: "alice")
/// for try await response in client.watchConversations() { … }
/// ```
public final class ChatClient: Sendable {
    let core: ClientCore
    let runtime: any ChatRuntime
    /// How the client was set up.
    public let configuration: Configuration
    /// The flight recorder, when the configuration's `diagnostics` asks for one.
    let recorder: FlightRecorder?

    public init(configuration: Configuration, tokenProvider: (any SessionTokenProvider)? = nil) {
        var recording = configuration
        let (recorder, problem) = Self.startRecorder(&recording)
        self.recorder = recorder
        core = ClientCore(configuration: recording, provider: tokenProvider)
        runtime = configuration.runtime
        self.configuration = configuration
        let core = self.core
        runtime.spawn {
            if let problem { await core.publish(.warning(problem)) }
            await core.startMonitoring()
        }
    }

    // MARK: Session

    /// Sets the user whose tokens the provider will be asked for, when they
    /// are first needed (A1). The same user again does nothing; another user
    /// throws `currentUserAlreadySet` (A3).
    public func setCurrentUser(userId: String) async throws {
        try await recorded(.setCurrentUser(userId: userId)) { try await core.setCurrentUser(Identifier.normalized(userId)) }
    }

    /// Removes every local trace of the user (A4): cache, tokens, pending
    /// messages; closes the connection; active watchers end with `userCleared`.
    public func clearCurrentUser() async {
        await recorded(.clearCurrentUser) { await core.clearCurrentUser() }
    }

    // MARK: Other ways in (A5–A13)

    /// Logs in with a JWT signed by the app's backend (A5). From an
    /// anonymous session the server merges the anonymous user in (A8).
    @discardableResult
    public func loginUser(jwt: String) async throws -> ChatUser {
        try await recorded(.loginUser(jwt: secret(jwt))) { try await core.login(jwt: jwt) }
    }

    /// Starts with a user the server creates (A7).
    @discardableResult
    public func loginAnonymous() async throws -> ChatUser {
        try await recorded(.loginAnonymous) { try await core.loginAnonymous() }
    }

    /// Connects with the user id alone, when the app allows it (A10).
    @discardableResult
    public func connect(userId: String) async throws -> ChatUser {
        try await recorded(.connect(userId: userId, credential: .userId)) {
            try await core.connect(userId: Identifier.normalized(userId), credential: .userId)
        }
    }

    /// Connects with an app-issued access token (A10).
    @discardableResult
    public func connect(userId: String, accessToken: String) async throws -> ChatUser {
        try await recorded(.connect(userId: userId, credential: .accessToken(secret(accessToken)))) {
            try await core.connect(userId: Identifier.normalized(userId), credential: .accessToken(accessToken))
        }
    }

    /// Connects with a session token; the `SessionDelegate` renews it (A10).
    @discardableResult
    public func connect(userId: String, sessionToken: String) async throws -> ChatUser {
        try await recorded(.connect(userId: userId, credential: .sessionToken(secret(sessionToken)))) {
            try await core.connect(userId: Identifier.normalized(userId), credential: .sessionToken(sessionToken))
        }
    }

    /// Closes the connection and forgets in-memory state; the disk cache
    /// stays for the next connect of the same user (A11).
    public func disconnect() async {
        await recorded(.disconnect) { await core.disconnect() }
    }

    /// Authorizes a user object (A12). Returns at once with the warnings it
    /// raised; network errors arrive as `authenticationFailed` events.
    @discardableResult
    public func authorize(user: ChatUser, auth: ChatAuth? = nil) async -> [String] {
        await recorded(.authorize(user: user.id, auth: recordedAuth(auth))) { await core.authorize(user: user, auth: auth) }
    }

    /// edna's name for `clearCurrentUser()` (A4).
    public func deauthorizeUser() async {
        await recorded(.deauthorizeUser) { await core.clearCurrentUser() }
    }

    /// Closes the server session, unsubscribes this device from the user's
    /// pushes and clears local data (A9). Offline, the server part waits on
    /// disk for the network. Throws `userNotAuthorized` when nobody is in.
    public func logout() async throws {
        try await recorded(.logout) { try await core.logout() }
    }

    /// The current user, with how they authenticated (A7).
    public func getCurrentUser() async -> ChatUser? {
        await core.currentUserSnapshot()
    }

    /// Changes the user's attributes; they reach the server the next time a
    /// conversation opens with a live connection (A13). `nil` clears them
    /// all (with what was pending); an empty value removes its key.
    public func updateData(_ attributes: [String: String]?) async throws {
        try await core.updateData(attributes)
    }

    /// Text the next opened conversation receives once in its draft; an
    /// empty string clears it (A13).
    public func prefill(message: String) async {
        await recorded(.prefill(message: kept(message))) { await core.prefill(message) }
    }

    /// Updates the nickname and profile URL (A14).
    @discardableResult
    public func updateCurrentUserInfo(nickname: String?, profileURL: String?) async throws -> ChatUser {
        try await core.updateProfile(nickname: nickname, profileURL: profileURL, image: nil)
    }

    /// Updates the nickname and uploads a profile image: JPEG or PNG, at
    /// most 5 MB, refused before upload otherwise (A14).
    @discardableResult
    public func updateCurrentUserInfo(nickname: String?, image: ProfileImage) async throws -> ChatUser {
        try await core.updateProfile(nickname: nickname, profileURL: nil, image: image)
    }

    // MARK: Push notifications (C4)

    /// Registers this device's push token (APNs, FCM…) for the signed-in
    /// user, replacing any token it registered before: the server sends the
    /// user's pushes to it. Register again after each sign-in and whenever
    /// the platform hands out a new token. `logout()` removes it;
    /// `clearCurrentUser()` does not (pushes keep arriving, A4).
    ///
    /// ```swift
    /// try await client.registerPushToken(deviceTokenHex)
    /// ```
    public func registerPushToken(_ token: String) async throws {
        try await recorded(.registerPushToken(token: secret(token))) { try await core.registerPushToken(token) }
    }

    /// Removes this device's push token: the signed-in user's pushes no
    /// longer reach this device.
    public func unregisterPushToken() async throws {
        try await recorded(.unregisterPushToken) { try await core.unregisterPushToken() }
    }

    /// Asked for a new JWT when the current one expires (A6).
    public func setAuthenticationDelegate(_ delegate: (any AuthenticationDelegate)?) async throws {
        let session = await core.sessionDelegate
        try await core.setDelegates(authentication: delegate, session: session, changingSession: false)
    }

    /// Renews session tokens (A10). Must be set before `connect(userId:sessionToken:)`.
    public func setSessionDelegate(_ delegate: (any SessionDelegate)?) async throws {
        let authentication = await core.authenticationDelegate
        try await core.setDelegates(authentication: authentication, session: delegate, changingSession: true)
    }

    /// The signed-in user's id, if any.
    public var currentUserId: String? { get async { await core.userId } }

    /// The cache the client keeps now (C1): the configuration's mode, or
    /// `.memory` while a disk cache could not be used (the client said why
    /// with a `warning` event).
    public var cacheMode: CacheMode { core.activeCacheMode.withLock { $0 } }

    /// This install's device id (C4): the configuration's, or the one
    /// generated once and kept in the cache folder.
    public var deviceId: String { core.device.id }

    /// The session state (A15).
    public var sessionState: SessionState { get async { await core.session } }

    /// The realtime connection's state (A15).
    public var connectionState: ConnectionState { get async { await core.connection } }

    /// Session and connection changes and warnings, from now on, in order.
    public func events() -> AsyncStream<ChatEvent> {
        let (stream, continuation) = AsyncStream<ChatEvent>.makeStream()
        let core = self.core
        runtime.spawn { await core.subscribe(continuation) }
        return stream
    }

    // MARK: Data

    /// The user's conversations, most recently updated first (D3).
    public func watchConversations() -> Watcher<PaginatedList<Conversation>> {
        makeWatcher(.conversations, Self.conversationsValue)
    }

    /// One conversation's details, including whether a provider is typing
    /// (D5). A conversation this device has never seen is asked of the server.
    public func watchConversation(withId id: String) -> Watcher<Conversation> {
        makeWatcher(.conversation(Identifier.normalized(id)), Self.conversationValue)
    }

    /// A conversation's messages, newest first, paginated (D5). A
    /// conversation this device has never seen is asked of the server.
    public func watchItems(ofConversationWithId id: String) -> Watcher<PaginatedList<Message>> {
        makeWatcher(.items(Identifier.normalized(id)), Self.itemsValue)
    }

    /// A new conversation, on this device only until its first message (D4).
    /// The SDK chooses its id, unless the app gives one (at most 256
    /// characters, no control characters). Every id the SDK takes is
    /// normalised to Unicode NFC, as the server does: `"cafe\u{301}"` and
    /// `"caf\u{E9}"` name one conversation. Starting one under an id this
    /// device already has gives that conversation. Ids are the app's: if
    /// another user holds the same id on the server, the server keeps this
    /// one under an id of its own, and the SDK translates (see
    /// `serverId(ofConversation:)`).
    public func startConversation(id: String? = nil, title: String? = nil) async throws -> Conversation {
        try await recorded(.startConversation(id: id, title: title)) {
            try await core.startConversation(id: Identifier.normalized(id), title: title)
        }
    }

    /// Sends a message; it appears at once in `watchItems` as `toBeSent` and
    /// moves to `sending`, then `sent` or `failed` (D6).
    ///
    /// A conversation this device does not hold (its id came from a push, a
    /// new session, another device) is asked of the server first, as a
    /// watcher asks it: `unknownConversation` when the server does not have
    /// it for this user either, and the network's error (`offline`) when
    /// it cannot be asked.
    @discardableResult
    public func sendMessage(_ content: MessageContent, replyingTo: String? = nil, in conversationId: String) async throws -> Message {
        try await recorded(.sendMessage(content: recordedContent(content), replyingTo: replyingTo, conversation: conversationId)) {
            try await core.sendMessage(content, replyingTo: Identifier.normalized(replyingTo), in: Identifier.normalized(conversationId))
        }
    }

    /// Sends a file with its bytes (D6): the message appears at once as
    /// `toBeSent`; the outbox uploads the bytes, then sends the message
    /// naming them, as one item that survives a restart and is retried like
    /// any other. The bytes stay in the cache until the message is sent.
    ///
    /// ```swift
    /// let png = try Data(contentsOf: url)
    /// try await client.sendAttachment(png, kind: .image, mimeType: "image/png", fileName: "dot.png", in: conversation.id)
    /// ```
    /// Throws `invalidArgument` for no bytes, `attachmentTooLarge` for more
    /// than any server accepts, before any byte leaves. The app's limits
    /// (size, types) are read from the server before the first upload; once
    /// known, bytes they refuse are refused here with the server's reason
    /// (`attachmentTooLarge`, `unsupportedMediaType`). Until then the
    /// outbox checks them before uploading, and a refusal, there or by the
    /// server, makes the message `failed` with that reason.
    @discardableResult
    public func sendAttachment(
        _ data: Data, kind: MessageContent.AttachmentKind, mimeType: String, fileName: String? = nil, replyingTo: String? = nil,
        in conversationId: String
    ) async throws -> Message {
        let content = MessageContent.attachment(kind: kind, mimeType: mimeType, size: Int64(data.count), fileName: fileName)
        return try await core.sendMessage(
            content, data: data, replyingTo: Identifier.normalized(replyingTo), in: Identifier.normalized(conversationId))
    }

    /// The bytes of a message's attachment and their type (D6): from the
    /// cache while the message is not sent, else from the server, which
    /// gives them to members of the message's conversation only, with
    /// their type as it stored them. Fetched bytes are kept in the cache
    /// (at most `Configuration.attachmentCacheBytes`, oldest fetched
    /// dropped first), so a second call makes no request. Throws `unknownAttachment` for a
    /// message without bytes (text, or an attachment described by its size
    /// alone).
    public func data(for message: Message) async throws -> AttachmentData {
        try await core.attachmentData(of: message.id)
    }

    /// The bytes of a user's profile image and their type (A14), for any
    /// signed-in user of the app. `profileURL` is the user's, as their
    /// profile gives it (`ChatUser.profileURL`) once they uploaded an image
    /// (`updateCurrentUserInfo(nickname:image:)`). Throws `invalidArgument`
    /// for a URL that names no uploaded image (one the app set itself),
    /// `unknownAttachment` when the server has no such image.
    ///
    /// ```swift
    /// if let url = user.profileURL { avatar = try await client.profileImageData(at: url).data }
    /// ```
    public func profileImageData(at profileURL: String) async throws -> AttachmentData {
        try await core.profileImageData(at: profileURL)
    }

    /// Sends a failed message again, with the same client id (D6).
    public func retrySending(itemId: String) async throws {
        try await recorded(.retrySending(itemId: itemId)) { try await core.retrySending(itemId: Identifier.normalized(itemId)) }
    }

    /// The conversation as this device knows it now, or nil.
    public func conversation(withId id: String) async throws -> Conversation? {
        try await core.conversationSnapshot(Identifier.normalized(id))
    }

    /// The id the server knows a conversation by: the app's own id, unless
    /// another user held it when the conversation was created, in which case
    /// the server chose one (what the provider side and the server's logs
    /// name it). Everything this client does takes and gives the app's id.
    public func serverId(ofConversation id: String) -> String {
        core.aliases.withLock { $0.serverId(Identifier.normalized(id)) }
    }

    /// The message as this device knows it now, or nil.
    public func message(withId id: String) async throws -> Message? {
        try await core.messageSnapshot(Identifier.normalized(id))
    }

    /// Tells the provider side whether the user is typing (D9). While on,
    /// the SDK renews it before it expires; off stops at once.
    public func setIsTyping(_ isTyping: Bool, in conversationId: String) async throws {
        try await recorded(.setIsTyping(isTyping: isTyping, conversation: conversationId)) {
            try await core.setIsTyping(isTyping, in: Identifier.normalized(conversationId))
        }
    }

    // MARK: Network

    /// Tells the SDK that the device's network went away or came back (D7),
    /// as the app's own reachability check sees it.
    ///
    /// Offline, messages sent stay `toBeSent`, queued on disk, and the
    /// realtime connection waits. Back, the outbox sends what waits at once,
    /// in order per conversation, also what was backing off after a
    /// retryable failure, and the realtime connection reconnects now rather
    /// than at the end of its back-off. On Apple platforms the HTTP
    /// transport also follows the system's path (NWPathMonitor); an app
    /// need not call this for that.
    ///
    /// ```swift
    /// client.networkReachabilityChanged(false)   // airplane mode
    /// client.networkReachabilityChanged(true)    // back
    /// ```
    public func networkReachabilityChanged(_ isReachable: Bool) async {
        await recorded(.networkReachabilityChanged(isReachable: isReachable)) { await core.networkReachabilityChanged(isReachable) }
    }

    // MARK: App lifecycle

    /// The app went to the background: the realtime connection closes.
    public func applicationDidEnterBackground() async {
        await recorded(.applicationDidEnterBackground) { await core.enterBackground() }
    }

    /// The app came to the foreground: the connection reopens and the
    /// refetch trigger fires.
    public func applicationWillEnterForeground() async {
        await recorded(.applicationWillEnterForeground) { await core.enterForeground() }
    }

    /// Refetches what every active watcher shows (Nabla's `RefetchTrigger`).
    public var refetchTrigger: RefetchTrigger {
        let core = self.core
        return RefetchTrigger { await core.refetchAll() }
    }

    /// Stops everything this client does, keeping its disk cache and outbox
    /// (what an app being killed amounts to). Watchers end with `clientClosed`.
    public func shutdown() async {
        await recorded(.shutdown) { await core.shutdown() }
        recorder?.finish()
    }

    // MARK: Watchers

    private func makeWatcher<Value: Sendable>(
        _ target: WatchTarget,
        _ transform: @escaping @Sendable (ClientCore, Int, WatcherSnapshot) -> Value?
    ) -> Watcher<Value> {
        let (stream, continuation) = AsyncThrowingStream<Response<Value>, any Error>.makeStream()
        let observation = startWatching(
            target, transform, onResponse: { continuation.yield($0) },
            onEnd: { continuation.finish(throwing: $0) })
        continuation.onTermination = { _ in observation.cancel() }
        return Watcher(stream: stream)
    }

    /// Starts a watcher of `target` whose responses go to `onResponse` the
    /// moment the client produces them; `onEnd` gets its end.
    func startWatching<Value: Sendable>(
        _ target: WatchTarget,
        _ transform: @escaping @Sendable (ClientCore, Int, WatcherSnapshot) -> Value?,
        onResponse: @escaping @Sendable (Response<Value>) -> Void,
        onEnd: @escaping @Sendable ((any Error)?) -> Void
    ) -> WatchObservation {
        let core = self.core
        let runtime = self.runtime
        let recorder = self.recorder
        recorder?.call(target.recordedCall)
        let observation = WatchObservation(core: core, runtime: runtime, recorder: recorder)
        runtime.spawn {
            let id = await core.addWatcher(
                target: target,
                yield: { id, snapshot, fresh, state in
                    recorder?.emission(id, snapshot, fresh: fresh, refreshing: state)
                    guard let value = transform(core, id, snapshot) else { return }
                    onResponse(Response(data: value, isDataFresh: fresh, refreshingState: state))
                },
                finish: { error in
                    recorder?.watcherEnded(observation.watcherID, error)
                    onEnd(error)
                })
            guard observation.started(id) else {
                await core.removeWatcher(id)
                return
            }
            await core.startWatcher(id)
        }
        return observation
    }
}

/// Fires a refetch of every active watcher of a client (D8).
public struct RefetchTrigger: Sendable {
    let action: @Sendable () async -> Void

    /// Refetches now; returns when the watchers have their fresh data.
    public func fire() async { await action() }
}
