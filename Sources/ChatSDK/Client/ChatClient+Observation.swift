internal import ChatCore

/// A watcher whose responses are delivered by callbacks rather than
/// through an `AsyncSequence`: each response the moment the client
/// produces it, on the client's executor (GRDB's `.immediate` scheduling
/// of a `ValueObservation`). For code that must see responses in the exact
/// order they happened among other events (a recorder, a test). Keep the
/// callbacks short and do not call the client from them.
///
/// The watcher runs until `cancel()` or until it ends by itself (`onEnd`).
public final class WatchObservation: Sendable {
    private let core: ClientCore
    private let runtime: any ChatRuntime
    private let recorder: FlightRecorder?
    /// The client's id of the watcher once it exists; cancelled first or not.
    private let state = LockedValue<(id: Int?, cancelled: Bool)>((nil, false))

    init(core: ClientCore, runtime: any ChatRuntime, recorder: FlightRecorder? = nil) {
        self.core = core
        self.runtime = runtime
        self.recorder = recorder
    }

    /// Stops the watcher; no response is delivered after it has run.
    public func cancel() {
        let id = state.withLock { s -> Int? in
            s.cancelled = true
            return s.id
        }
        guard let id else { return }
        recorder?.call(.cancelWatcher(watcher: id))
        let core = self.core
        runtime.spawn { await core.removeWatcher(id) }
    }

    /// The client's id of the watcher, once it exists.
    var watcherID: Int? { state.withLock { $0.id } }

    /// Records the watcher's id; false when it was cancelled before it existed.
    func started(_ id: Int) -> Bool {
        state.withLock { s in
            s.id = id
            return !s.cancelled
        }
    }
}

extension ChatClient {
    /// `watchConversations()`, delivered by callbacks (see `WatchObservation`).
    public func observeConversations(
        onResponse: @escaping @Sendable (Response<PaginatedList<Conversation>>) -> Void,
        onEnd: @escaping @Sendable ((any Error)?) -> Void
    ) -> WatchObservation {
        startWatching(.conversations, Self.conversationsValue, onResponse: onResponse, onEnd: onEnd)
    }

    /// `watchConversation(withId:)`, delivered by callbacks (see `WatchObservation`).
    public func observeConversation(
        withId id: String,
        onResponse: @escaping @Sendable (Response<Conversation>) -> Void,
        onEnd: @escaping @Sendable ((any Error)?) -> Void
    ) -> WatchObservation {
        startWatching(.conversation(id), Self.conversationValue, onResponse: onResponse, onEnd: onEnd)
    }

    /// `watchItems(ofConversationWithId:)`, delivered by callbacks (see `WatchObservation`).
    public func observeItems(
        ofConversationWithId id: String,
        onResponse: @escaping @Sendable (Response<PaginatedList<Message>>) -> Void,
        onEnd: @escaping @Sendable ((any Error)?) -> Void
    ) -> WatchObservation {
        startWatching(.items(id), Self.itemsValue, onResponse: onResponse, onEnd: onEnd)
    }

    // The values of each kind of watcher, from the client's snapshots.

    static let conversationsValue: @Sendable (ClientCore, Int, WatcherSnapshot) -> PaginatedList<Conversation>? = { core, id, snapshot in
        guard case .conversations(let list, let hasMore) = snapshot else { return nil }
        return PaginatedList(elements: list, loadMore: hasMore ? core.loadMoreAction(id) : nil)
    }

    static let conversationValue: @Sendable (ClientCore, Int, WatcherSnapshot) -> Conversation? = { _, _, snapshot in
        guard case .conversation(let conversation) = snapshot else { return nil }
        return conversation
    }

    static let itemsValue: @Sendable (ClientCore, Int, WatcherSnapshot) -> PaginatedList<Message>? = { core, id, snapshot in
        guard case .items(let list, let hasMore) = snapshot else { return nil }
        return PaginatedList(elements: list, loadMore: hasMore ? core.loadMoreAction(id) : nil)
    }
}
