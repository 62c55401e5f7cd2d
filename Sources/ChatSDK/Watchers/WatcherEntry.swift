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
/// (`machine`), what it shows and how to emit.
///
/// The store's mirror is the one cache of data; a watcher keeps only what
/// it last emitted (so that it never emits the same thing twice) and the
/// state of the store it was read from (so that an unchanged store is not
/// read again to find out that nothing changed).
final class WatcherEntry {
    let id: Int
    var machine: WatcherMachine
    var target: WatchTarget { machine.target }
    var shown: Shown?
    var hasEmitted: Bool { shown != nil }

    /// What a watcher emitted last, and what its data was read from.
    struct Shown {
        var snapshot: WatcherSnapshot
        var fresh: Bool
        var refreshing: RefreshingState
        var readFrom: ReadStamp
    }

    /// What a snapshot depends on: the store's version, the watcher's pages
    /// and server state, and the clock (a conversation's typing state
    /// depends on it; a list of messages does not, so its `now` is nil).
    struct ReadStamp: Hashable {
        var version: UInt64
        var pages: Int
        var serverExhausted: Bool
        var now: Instant?
    }
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
