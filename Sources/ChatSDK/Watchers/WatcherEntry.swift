internal import ChatCore

/// What a watcher looks at.
enum WatchTarget: Hashable, Sendable {
    case conversations
    case conversation(String)
    case items(String)

    var isItems: Bool {
        if case .items = self { true } else { false }
    }

    /// The cache's note that the server's list was fetched once.
    var fetchedKey: String {
        switch self {
        case .conversations: "fetched:conversations"
        case .conversation(let id): "fetched:conversation:\(id)"
        case .items(let id): "fetched:items:\(id)"
        }
    }

    var conversationId: String? {
        switch self {
        case .conversations: nil
        case .conversation(let id), .items(let id): id
        }
    }
}

/// What a watcher shows at one moment, before it is typed for its stream.
enum WatcherSnapshot: Hashable, Sendable {
    case conversations([Conversation], hasMore: Bool)
    case conversation(Conversation)
    case items([Message], hasMore: Bool)
}

/// One active watcher, as the client's actor keeps it: its decisions
/// (`machine`), what it emitted last and how to emit.
final class WatcherEntry {
    let id: Int
    var machine: WatcherMachine
    var target: WatchTarget { machine.target }
    var lastEmitted: (WatcherSnapshot, Bool, RefreshingState)?
    var hasEmitted: Bool { lastEmitted != nil }
    /// The last snapshot read for this watcher and what it depended on
    /// (store version, pages, server state, clock), to skip re-reading the
    /// store when nothing it shows has changed.
    var snapshotCache: (version: UInt64, pages: Int, serverExhausted: Bool, now: Instant, snapshot: WatcherSnapshot?)?
    let yield: @Sendable (Int, WatcherSnapshot, Bool, RefreshingState) -> Void
    let finish: @Sendable ((any Error)?) -> Void

    init(
        id: Int, target: WatchTarget, yield: @escaping @Sendable (Int, WatcherSnapshot, Bool, RefreshingState) -> Void,
        finish: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.id = id
        self.machine = WatcherMachine(target: target)
        self.yield = yield
        self.finish = finish
    }
}
