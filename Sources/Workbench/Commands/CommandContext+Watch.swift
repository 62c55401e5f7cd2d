import ChatSDK
import ChatSimulation

extension CommandContext.World {
    /// Starts a watcher and logs each of its emissions the moment the SDK
    /// produces it, in order with everything else that happens.
    func startWatcher(_ target: WatcherObject.Target, binding: String?) -> WatcherObject {
        let object = WatcherObject(handle: handles.nextHandle("w").name, target: target, client: current)
        handles.register(object)
        handles.bind(binding, to: object)
        let client = current.client
        let log = self.log
        let world = self.stage
        let handles = self.handles
        let onEnd: @Sendable ((any Error)?) -> Void = { error in Self.ended(object, error: error, world: world, log: log) }
        switch target {
        case .conversations:
            object.observation = client.observeConversations(
                onResponse: { [weak handles] response in
                    guard let handles else { return }
                    let conversations = handles.absorb(response.data.elements, client: object.client)
                    Self.page(
                        response, handles: conversations.map(\.handle), labels: conversations.prefix(4).map(\.label),
                        noun: "conversation", of: object, world: world, log: log)
                }, onEnd: onEnd)
        case .conversation(let conversation):
            object.observation = client.observeConversation(
                withId: conversation.id,
                onResponse: { response in
                    conversation.latest = response.data
                    object.elements = [conversation.handle]
                    let c = response.data
                    let text = "\(conversation.label) \(c.isLocal ? "local" : "on server")"
                    Self.emitted(response, text, by: object, world: world, log: log)
                }, onEnd: onEnd)
        case .items(let conversation):
            object.observation = client.observeItems(
                ofConversationWithId: conversation.id,
                onResponse: { [weak handles] response in
                    guard let handles else { return }
                    let messages = handles.absorb(response.data.elements, client: object.client)
                    Self.page(
                        response, handles: messages.map(\.handle), labels: messages.prefix(4).map(\.label),
                        noun: "item", of: object, world: world, log: log)
                }, onEnd: onEnd)
        }
        return object
    }

    /// One emission of a paginated watcher: what it holds, then the emission.
    private static func page<Element>(
        _ response: Response<PaginatedList<Element>>, handles: [String], labels: [String], noun: String,
        of object: WatcherObject, world: any Stage, log: EventLog
    ) {
        object.elements = handles
        object.hasMore = response.data.loadMore != nil
        object.loadMore = response.data.loadMore
        emitted(response, describe(count: handles.count, noun: noun, labels: labels), by: object, world: world, log: log)
    }

    /// One emission of a watcher: its state, its history and the event.
    private static func emitted<Value>(
        _ response: Response<Value>, _ description: String, by object: WatcherObject,
        world: any Stage, log: EventLog
    ) {
        guard !object.state.isEnded else { return }
        object.fresh = response.isDataFresh
        object.state = .live(response.refreshingState)
        if case .failed(let error) = response.refreshingState { object.error = error } else { object.error = nil }
        let entry = log.append(
            world.now,
            .emission(
                watcher: object.handle, fresh: response.isDataFresh,
                refreshing: response.refreshingState, summary: description))
        object.emissions.append(.init(time: entry.time, text: entry.text))
    }

    /// The watcher ended by itself (an error, the user cleared).
    private static func ended(_ object: WatcherObject, error: (any Error)?, world: any Stage, log: EventLog) {
        guard !object.state.isEnded else { return }
        object.state = .ended
        guard let error, !(error is CancellationError) else { return }
        let chatError = error as? ChatError ?? ChatError(ChatError.Code(rawValue: "error"), "\(error)")
        object.error = chatError
        let entry = log.append(world.now, .watcherEnded(watcher: object.handle, error: chatError))
        object.emissions.append(.init(time: entry.time, text: entry.text))
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
