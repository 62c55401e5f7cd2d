import ChatSDK
import ChatSimulation

extension Interpreter {
    /// A new SDK client on the world's network, with its own provider, and
    /// its events logged.
    func makeClient(named name: String, cacheMode: ChatClient.CacheMode, apiKey: String) -> ClientObject {
        var configuration = ChatClient.Configuration(apiKey: apiKey, transport: world.makeTransport(), runtime: world)
        configuration.cacheMode = cacheMode
        configuration.deviceId = "device-\(name)"
        let provider = SimulatedTokenProvider(world: world, apiKey: apiKey)
        let client = ChatClient(configuration: configuration, tokenProvider: provider)
        let object = ClientObject(name: name, client: client, provider: provider, cacheMode: cacheMode, apiKey: apiKey)
        clients.append(object)
        let events = client.events()
        let log = self.log
        let world = self.world
        world.spawn {
            for await event in events {
                switch event {
                case .sessionChanged(let state):
                    object.session = state
                    if case .signedOut = state { object.userId = nil; object.auth = nil }
                    if case .authenticated(let user, let via) = state { object.userId = user; object.auth = via }
                    log.append(world.now, "\(name).session → \(state)")
                case .connectionChanged(let state):
                    object.connection = state
                    log.append(world.now, "\(name).connection → \(state.rawValue)")
                case .warning(let text):
                    log.append(world.now, "\(name) warning: \(text)")
                }
            }
        }
        return object
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
