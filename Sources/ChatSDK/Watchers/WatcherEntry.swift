import ChatCore

/// What a watcher looks at.
enum WatchTarget: Hashable, Sendable {
    case conversations
    case conversation(String)
    case items(String)

    var isItems: Bool {
        if case .items = self { true } else { false }
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

/// One active watcher, as the client's actor keeps it.
final class WatcherEntry {
    let id: Int
    let target: WatchTarget
    /// Pages of `pageSize` elements the watcher shows (D3).
    var pages = 1
    var fresh = false
    var refreshing: RefreshingState = .refreshing
    /// Cursor of the next older page on the server; nil when there is none
    /// or it is not known yet (`serverExhausted` tells which).
    var serverCursor: String?
    var serverExhausted = false
    var lastEmitted: (WatcherSnapshot, Bool, RefreshingState)?
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
        self.target = target
        self.yield = yield
        self.finish = finish
    }
}
