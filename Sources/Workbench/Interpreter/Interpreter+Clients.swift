import ChatSDK
import ChatSimulation
import Foundation

extension Interpreter {
    /// A new SDK client on the world's network, with its own provider, and
    /// its events logged.
    func makeClient(named name: String, cacheMode: ChatClient.CacheMode, apiKey: String, autoResend: Bool = true) -> ClientObject {
        let provider = SimulatedTokenProvider(runtime: world.clientRuntime, issuer: world.tokenIssuer(apiKey: apiKey))
        let relay = EventRelay()
        let object = ClientObject(
            name: name,
            client: makeSDKClient(
                name: name, cacheMode: cacheMode, apiKey: apiKey, autoResend: autoResend, provider: provider, relay: relay),
            provider: provider, cacheMode: cacheMode, apiKey: apiKey, autoResend: autoResend,
            delegate: WorkbenchDelegate(world: world, apiKey: apiKey), relay: relay)
        clients.append(object)
        observe(object)
        return object
    }

    /// An SDK client as the app would build it at launch: same device, same
    /// cache folder, same provider.
    func makeSDKClient(
        name: String, cacheMode: ChatClient.CacheMode, apiKey: String, autoResend: Bool = true, provider: SimulatedTokenProvider,
        relay: EventRelay
    ) -> ChatClient {
        var configuration = ChatClient.Configuration(
            apiKey: apiKey, transport: world.makeTransport(deviceId: ClientObject.deviceId(of: name)), runtime: world.clientRuntime)
        configuration.cacheMode = cacheMode
        configuration.cacheDirectory = cacheFolder
        configuration.deviceId = ClientObject.deviceId(of: name)
        configuration.autoResend = autoResend
        configuration.onEvent = { relay.handle($0) }
        configuration.diagnostics = Self.diagnostics(forClient: name)
        return ChatClient(configuration: configuration, tokenProvider: provider)
    }

    /// With `CHATBENCH_DIAGNOSTICS_DIR` set, each client's flight recorder
    /// writes `DIR/NAME.sqlite`, as an app with diagnostics on would (for
    /// measuring the recorder: scripts/bench-recorder.sh).
    static func diagnostics(forClient name: String) -> ChatClient.Diagnostics? {
        guard let folder = ProcessInfo.processInfo.environment["CHATBENCH_DIAGNOSTICS_DIR"], !folder.isEmpty else { return nil }
        var settings = ChatClient.Diagnostics(file: (folder as NSString).appendingPathComponent("\(name).sqlite"), appName: "chatbench")
        settings.device = "chatbench"
        return settings
    }

    /// Gives the SDK client the workbench's delegate, or none.
    func applyDelegate(_ object: ClientObject) {
        let client = object.client
        let delegate: WorkbenchDelegate? = object.delegate.mode == .none ? nil : object.delegate
        world.spawn {
            try? await client.setAuthenticationDelegate(delegate)
            try? await client.setSessionDelegate(delegate)
        }
        world.runUntilIdle()
    }

    /// Logs the client's session and connection changes, warnings and
    /// message states, at the moment the SDK publishes them.
    func observe(_ object: ClientObject) {
        let log = self.log
        let world = self.world
        let name = object.name
        // The relay belongs to the object: its handler must not own the
        // object back, or the object, its SDK client and the client's
        // open cache files outlive the session (a file-descriptor leak that
        // ended a long `explore` with "Too many open files").
        // Weak, not unowned: an event the SDK delivers after the session
        // ended (work left in flight by an interrupted step) finds nothing
        // to log, rather than a freed interpreter.
        object.relay.handler = { [weak self, weak object] event in
            guard let self, let object else { return }
            switch event {
            case .sessionChanged(let state):
                object.audit.saw(state, client: name)
                object.session = state
                // The user the SDK acts for: set from the first state that
                // names one, kept through `closed` (the SDK keeps it until
                // it is cleared), gone when signed out.
                if let user = state.userId, user != object.userId {
                    if let previous = object.userId { object.pastUsers.append(previous) }
                    object.userId = user
                    object.auth = nil
                }
                if case .signedOut = state {
                    if let previous = object.userId { object.pastUsers.append(previous) }
                    object.userId = nil
                    object.auth = nil
                }
                if case .authenticated(let user, let via) = state {
                    object.userId = user
                    object.auth = via
                    object.delegate.userId = user
                }
            case .connectionChanged(let state):
                object.audit.saw(state, client: name)
                object.connection = state
            case .messageStateChanged(let message):
                self.recordState(of: message, client: object)
                return
            case .warning, .authenticationFailed, .sessionWasRefreshed, .sessionWasClosed, .sessionDidHaveError:
                break
            }
            log.append(world.now, .client(name, event))
        }
    }

    /// `app restart`: the client is thrown away and built again from its
    /// disk cache and outbox; the app sets its user again at launch.
    func restart(_ object: ClientObject, corruptingCache: Bool = false) {
        let old = object.client
        world.network.conditions.report(.restart(device: object.deviceId))
        perform { await old.shutdown() }
        if corruptingCache, let user = object.userId, let file = old.configuration.cacheFile(forUserId: user) {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x5A, count: 4096))
            print("the disk cache of \(user) on \(object.name) is now garbage")
        }
        if object.cacheMode != .disk || corruptingCache {
            for case let message as MessageObject in objects.values where message.client === object {
                switch message.latest?.state {
                case .sent?, .failed?: break
                default: object.lostWithARestart.insert(message.id)
                }
            }
        }
        object.isShutDown = false
        object.client = makeSDKClient(
            name: object.name, cacheMode: object.cacheMode, apiKey: object.apiKey, autoResend: object.autoResend,
            provider: object.provider, relay: object.relay)
        object.session = .signedOut
        object.connection = .disconnected
        object.audit.restarted()
        observe(object)
        applyDelegate(object)
        world.runUntilIdle()
        guard let user = object.userId else {
            print("\(object.name) restarted (no user)")
            return
        }
        let client = object.client
        print("\(object.name) restarted; the app sets user \(user) again at launch")
        perform { try await client.setCurrentUser(userId: user) }
        world.runUntilIdle()
    }

    /// Updates message objects from what a watcher shows. States are not
    /// taken from here: a watcher's emission can be older than the SDK's
    /// last word on a message; `messageStateChanged` alone says them. A
    /// message's record is its own client's view (the client that sent or
    /// first saw it): another client's watcher shows what that client knows
    /// and leaves the record alone (issue 29: a tablet showed the phone's
    /// local `sending`). Returns each message's handle and its label as
    /// `client` sees it.
    @discardableResult
    func absorb(_ messages: [Message], client: ClientObject) -> [(handle: String, label: String)] {
        // Messages come newest first; new ones get handles oldest first,
        // in the order they were written.
        for message in messages.reversed() where handle(forID: message.id) == nil {
            _ = messageObject(for: message.id, conversationId: message.conversationId, client: client)
        }
        return messages.map { message in
            let object = messageObject(for: message.id, conversationId: message.conversationId, client: client)
            let view = view(of: message, as: object, seenBy: client)
            if object.client === client || object.latest == nil { object.latest = view }
            return (object.handle, object.label(of: view))
        }
    }

    /// A message as `client` sees it: its owner's last reported state
    /// stands over an older emission; another client's view is its own.
    func view(of message: Message, as object: MessageObject, seenBy client: ClientObject) -> SeenMessage {
        var message = message
        if object.client === client, let state = object.reportedState { message.state = state }
        return SeenMessage(message)
    }

    /// A state the SDK says one of the user's messages entered: its
    /// history and the step's event.
    func recordState(of message: Message, client: ClientObject) {
        let object = messageObject(for: message.id, conversationId: message.conversationId, client: client)
        object.latest = SeenMessage(message)
        object.reportedState = message.state
        object.appendHistory(message.state, at: world.now)
        log.append(world.now, .messageState(message: object.handle, state: message.state))
    }

    func absorb(_ conversations: [Conversation], client: ClientObject) -> [ConversationObject] {
        conversations.map { conversation in
            let object = conversationObject(for: conversation.id, client: client)
            object.latest = conversation
            return object
        }
    }
}
