import ChatSDK
import ChatSimulation

extension Interpreter {
    /// Starts a watcher and logs each of its emissions.
    func startWatcher(_ target: WatcherObject.Target, binding: String?) -> WatcherObject {
        let world = self.world
        let log = self.log
        let object = WatcherObject(handle: nextHandle("w"), target: target, client: current)
        register(object)
        bind(binding, to: object)
        let client = current.client
        switch target {
        case .conversations:
            let watcher = client.watchConversations()
            object.task = world.spawn { [world, log, unowned self] in
                await Interpreter.consume(watcher, into: object, world: world, log: log) { response in
                    let conversations = self.absorb(response.data.elements, client: object.client)
                    object.elements = conversations.map(\.handle)
                    object.hasMore = response.data.loadMore != nil
                    object.loadMore = response.data.loadMore
                    return Interpreter.describe(count: conversations.count, noun: "conversation", labels: conversations.prefix(4).map(\.label))
                }
            }
        case .conversation(let conversation):
            let watcher = client.watchConversation(withId: conversation.id)
            object.task = world.spawn { [world, log] in
                await Interpreter.consume(watcher, into: object, world: world, log: log) { response in
                    conversation.latest = response.data
                    object.elements = [conversation.handle]
                    let c = response.data
                    return "\(conversation.label) \(c.isLocal ? "local" : "on server")\(c.providerTyping ? ", provider typing" : "")"
                }
            }
        case .items(let conversation):
            let watcher = client.watchItems(ofConversationWithId: conversation.id)
            object.task = world.spawn { [world, log, unowned self] in
                await Interpreter.consume(watcher, into: object, world: world, log: log) { response in
                    let messages = self.absorb(response.data.elements, client: object.client)
                    object.elements = messages.map(\.handle)
                    object.hasMore = response.data.loadMore != nil
                    object.loadMore = response.data.loadMore
                    return Interpreter.describe(count: messages.count, noun: "item", labels: messages.prefix(4).map(\.label))
                }
            }
        }
        return object
    }

    /// Static, so that a watcher waiting forever holds no interpreter.
    private static func consume<Value: Sendable>(_ watcher: Watcher<Value>, into object: WatcherObject, world: any Stage, log: EventLog,
                                                 describe: (Response<Value>) -> String) async {
        func event(_ text: String) { log.append(world.now, text) }
        do {
            for try await response in watcher {
                object.fresh = response.isDataFresh
                object.state = response.refreshingState.name
                if case .failed(let error) = response.refreshingState { object.error = error } else { object.error = nil }
                var text = describe(response)
                let freshness = "\(response.isDataFresh ? "fresh" : "cached"), \(response.refreshingState.name)"
                if case .failed(let error) = response.refreshingState { text += " — \(error.code)" }
                text = "\(object.handle) emits (\(freshness)) \(text)"
                object.emissions.append(.init(time: world.now, text: text))
                event(text)
            }
            object.state = "ended"
        } catch is CancellationError {
            object.state = "ended"
        } catch {
            let chatError = error as? ChatError ?? ChatError(ChatError.Code(rawValue: "error"), "\(error)")
            object.state = "ended"
            object.error = chatError
            let text = "\(object.handle) ended: \(chatError.code) — \(chatError.message)"
            object.emissions.append(.init(time: world.now, text: text))
            event(text)
        }
    }

    /// `labels` needs no more than four: three are shown, a fourth adds " · …".
    static func describe(count: Int, noun: String, labels: [String]) -> String {
        var text = "\(count) \(noun)\(count == 1 ? "" : "s")"
        guard !labels.isEmpty else { return text }
        let shown = labels.prefix(3).joined(separator: " · ")
        text += ": " + shown + (labels.count > 3 ? " · …" : "")
        return text
    }
}
