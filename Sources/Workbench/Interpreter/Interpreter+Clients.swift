import ChatSDK
import Foundation
import ChatSimulation

extension Interpreter {
    /// A new SDK client on the world's network, with its own provider, and
    /// its events logged.
    func makeClient(named name: String, cacheMode: ChatClient.CacheMode, apiKey: String) -> ClientObject {
        let provider = SimulatedTokenProvider(runtime: world.clientRuntime, issuer: world.tokenIssuer(apiKey: apiKey))
        let object = ClientObject(
            name: name, client: makeSDKClient(name: name, cacheMode: cacheMode, apiKey: apiKey, provider: provider),
            provider: provider, cacheMode: cacheMode, apiKey: apiKey,
            delegate: WorkbenchDelegate(world: world, apiKey: apiKey))
        clients.append(object)
        observe(object)
        return object
    }

    /// An SDK client as the app would build it at launch: same device, same
    /// cache folder, same provider.
    func makeSDKClient(name: String, cacheMode: ChatClient.CacheMode, apiKey: String, provider: SimulatedTokenProvider) -> ChatClient {
        var configuration = ChatClient.Configuration(apiKey: apiKey, transport: world.makeTransport(deviceId: "device-\(name)"), runtime: world.clientRuntime)
        configuration.cacheMode = cacheMode
        configuration.cacheDirectory = cacheFolder
        configuration.deviceId = "device-\(name)"
        return ChatClient(configuration: configuration, tokenProvider: provider)
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

    /// Logs the client's session and connection changes and warnings.
    func observe(_ object: ClientObject) {
        let events = object.client.events()
        let log = self.log
        let world = self.world
        let name = object.name
        world.spawn {
            for await event in events {
                switch event {
                case .sessionChanged(let state):
                    object.session = state
                    if case .signedOut = state { object.userId = nil; object.auth = nil }
                    if case .authenticated(let user, let via) = state {
                        object.userId = user
                        object.auth = via
                        object.delegate.userId = user
                    }
                    log.append(world.now, "\(name).session → \(state)")
                case .connectionChanged(let state):
                    object.connection = state
                    log.append(world.now, "\(name).connection → \(state.rawValue)")
                case .warning(let text):
                    log.append(world.now, "\(name) warning: \(text)")
                case .authenticationFailed(let error):
                    log.append(world.now, "\(name) authenticationFailed: \(error.code) — \(error.message)")
                case .sessionWasRefreshed:
                    log.append(world.now, "\(name) sessionWasRefreshed")
                case .sessionWasClosed:
                    log.append(world.now, "\(name) sessionWasClosed")
                case .sessionDidHaveError(let error):
                    log.append(world.now, "\(name) sessionDidHaveError: \(error.code) — \(error.message)")
                }
            }
        }
    }

    /// `app restart`: the client is thrown away and built again from its
    /// disk cache and outbox; the app sets its user again at launch.
    func restart(_ object: ClientObject, corruptingCache: Bool = false) {
        let old = object.client
        world.network.conditions.report("restart device-\(object.name)")
        perform { await old.shutdown() }
        if corruptingCache, let user = object.userId, let file = old.configuration.cacheFile(forUserId: user) {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x5A, count: 4096))
            print("the disk cache of \(user) on \(object.name) is now garbage")
        }
        object.stopTracking()
        object.client = makeSDKClient(name: object.name, cacheMode: object.cacheMode, apiKey: object.apiKey, provider: object.provider)
        object.session = .signedOut
        object.connection = .disconnected
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
        for conversation in objects.values.compactMap({ $0 as? ConversationObject }).filter({ $0.client === object }) {
            if conversation.latest != nil { track(conversation) }
        }
        world.runUntilIdle()
    }

    /// Follows the messages of a conversation so that their states show
    /// (an internal `watchItems`, as an app's chat screen would hold).
    func track(_ conversation: ConversationObject) {
        let client = conversation.client
        guard client.trackers[conversation.id] == nil else { return }
        let watcher = client.client.watchItems(ofConversationWithId: conversation.id)
        client.trackers[conversation.id] = world.spawn { [unowned self] in
            do {
                for try await response in watcher {
                    self.absorb(response.data.elements, client: client)
                }
            } catch {}
        }
    }

    /// Updates message objects from what a watcher shows; logs state changes.
    @discardableResult
    func absorb(_ messages: [Message], client: ClientObject) -> [MessageObject] {
        messages.map { message in
            let object = messageObject(for: message.id, conversationId: message.conversationId, client: client)
            let previous = object.latest?.state
            object.latest = message
            if case .user = message.author, previous != message.state {
                object.history.append((world.now, message.state.description))
                var text = "\(object.handle): \(message.state.name)"
                if case .failed(let error) = message.state { text += " (\(error.code) — \(error.message))" }
                event(text)
            }
            return object
        }
    }

    func absorb(_ conversations: [Conversation], client: ClientObject) -> [ConversationObject] {
        conversations.map { conversation in
            let object = conversationObject(for: conversation.id, client: client)
            object.latest = conversation
            return object
        }
    }
}
