import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

extension CommandContext.World {
    /// A new SDK client on the world's network, with its own provider, and
    /// its events logged.
    func makeClient(named name: String, cacheMode: ChatClient.CacheMode, apiKey: String, autoResend: Bool = true) -> ClientObject {
        let provider = SimulatedTokenProvider(runtime: stage.clientRuntime, issuer: stage.tokenIssuer(apiKey: apiKey))
        let relay = EventRelay()
        let object = ClientObject(
            name: name,
            client: makeSDKClient(
                name: name, cacheMode: cacheMode, apiKey: apiKey, autoResend: autoResend, provider: provider, relay: relay),
            provider: provider, cacheMode: cacheMode, apiKey: apiKey, autoResend: autoResend,
            delegate: WorkbenchDelegate(world: stage, apiKey: apiKey), relay: relay)
        handles.clients.append(object)
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
            apiKey: apiKey, transport: stage.makeTransport(deviceId: ClientObject.deviceId(of: name)), runtime: stage.clientRuntime)
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
        stage.spawn {
            try? await client.setAuthenticationDelegate(delegate)
            try? await client.setSessionDelegate(delegate)
        }
        stage.runUntilIdle()
    }

    /// Logs the client's session and connection changes, warnings and
    /// message states, at the moment the SDK publishes them.
    func observe(_ object: ClientObject) {
        let log = self.log
        let world = self.stage
        let name = object.name
        // The relay belongs to the object: its handler must not own the
        // object back, or the object, its SDK client and the client's
        // open cache files outlive the session (a file-descriptor leak that
        // ended a long `explore` with "Too many open files").
        // Weak, not unowned: an event the SDK delivers after the session
        // ended (work left in flight by an interrupted step) finds nothing
        // to log, rather than the freed objects of a session.
        object.relay.handler = { [weak handles, weak object] event in
            guard let handles, let object else { return }
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
                    // An anonymous user's id is the server's.
                    if via == .anonymous { handles.minted.learn(user, as: "\(name).user") }
                    object.userId = user
                    object.auth = via
                    object.delegate.userId = user
                }
            case .connectionChanged(let state):
                object.audit.saw(state, client: name)
                object.connection = state
            case .messageStateChanged(let message):
                handles.recordState(of: message, client: object, at: world.now, log: log)
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
        stage.network.conditions.report(.restart(device: object.deviceId))
        perform { await old.shutdown() }
        if corruptingCache, let user = object.userId, let file = old.configuration.cacheFile(forUserId: user) {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x5A, count: 4096))
            output.print("the disk cache of \(user) on \(object.name) is now garbage")
        }
        if object.cacheMode != .disk || corruptingCache {
            for case let message as MessageObject in handles.objects.values where message.client === object {
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
        stage.runUntilIdle()
        guard let user = object.userId else {
            output.print("\(object.name) restarted (no user)")
            return
        }
        let client = object.client
        output.print("\(object.name) restarted; the app sets user \(user) again at launch")
        perform { try await client.setCurrentUser(userId: user) }
        stage.runUntilIdle()
    }
}
