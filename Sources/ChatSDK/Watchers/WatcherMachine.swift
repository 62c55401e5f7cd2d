internal import ChatCore

/// One watcher's decisions (D1, D3), without I/O: what it fetches from the
/// server and when, what its freshness and refresh state become after each
/// answer, when it ends, and how many pages it shows.
///
/// Every fetch it asks for carries an id, and an answer counts only while
/// its fetch is pending: a late answer (to a fetch it no longer waits for)
/// changes nothing. `ClientCore` performs the actions (requests, store
/// writes, emissions) and feeds the answers back; whether the watcher has
/// emitted and what the cache holds come in as arguments, as the cache is
/// the client's.
struct WatcherMachine: Sendable, Equatable {
    /// A fetch from the server, and the id its answer is given back with.
    struct Fetch: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            /// Every page the watcher shows, from the newest (a refresh).
            case shownPages
            /// The page after `cursor` (nil: the first), for `loadMore`.
            case nextPage(cursor: String?)
        }
        let id: Int
        let kind: Kind
    }

    /// Where the server's list continues after what a fetch read.
    enum ListEnd: Sendable, Hashable {
        case more(cursor: String)
        case end

        init(nextCursor: String?) {
            self = nextCursor.map { .more(cursor: $0) } ?? .end
        }

        var cursor: String? {
            if case .more(let cursor) = self { cursor } else { nil }
        }
    }

    enum Action: Sendable, Equatable {
        /// Emit what the watcher shows now (unless it emitted just that).
        case emit
        /// Fresh data came: every watcher showing the same data emits.
        case emitAllConcerned
        /// Ask the server, and give the answer back by `fetch.id`.
        case fetch(Fetch)
        /// The watcher ends with this error.
        case finish(ChatError)
    }

    let target: WatchTarget
    /// Pages of `pageSize` elements the watcher shows (D3).
    private(set) var pages = 1
    private(set) var fresh = false
    private(set) var refreshing: RefreshingState = .refreshing
    /// Cursor of the next older page on the server; nil when there is none
    /// or it is not known yet (`serverExhausted` tells which).
    private(set) var serverCursor: String?
    private(set) var serverExhausted = false
    /// The fetches on their way, by id.
    private(set) var pending: [Int: Fetch.Kind] = [:]
    private var lastFetchID = 0

    init(target: WatchTarget) {
        self.target = target
    }

    // MARK: Refresh

    /// Fetch again what the watcher shows. A conversation only on this
    /// device has nothing to ask the server: it is fresh at once. After a
    /// failure, the watcher first says a new refresh is under way.
    mutating func refresh(localOnly: Bool) -> [Action] {
        if localOnly {
            fresh = true
            refreshing = .refreshed
            return [.emit]
        }
        let retrying = if case .failed = refreshing { true } else { false }
        refreshing = .refreshing
        return (retrying ? [.emit] : []) + [.fetch(startFetch(.shownPages))]
    }

    /// A refresh's pages came. `end` is where the list goes on (nil for a
    /// single conversation, which is no list); `live` whether data fetched
    /// now stays the server's (the realtime link is up or on its way).
    mutating func refreshed(_ id: Int, end: ListEnd?, live: Bool) -> [Action] {
        guard pending.removeValue(forKey: id) != nil else { return [] }
        if let end { record(end) }
        fresh = live
        // Refreshed means fresh (issue 25, as Nabla's SDK says it): data
        // fetched while the link is down is refreshed again when it is back.
        refreshing = live ? .refreshed : .refreshing
        return [.emitAllConcerned, .emit]
    }

    /// A refresh failed: a watcher that never showed anything ends with the
    /// error; one that did keeps its data, no longer fresh, and says why.
    mutating func refreshFailed(_ id: Int, error: ChatError, hasEmitted: Bool) -> [Action] {
        guard pending.removeValue(forKey: id) != nil else { return [] }
        guard hasEmitted else { return [.finish(error)] }
        fresh = false
        refreshing = .failed(error)
        return [.emit]
    }

    /// A message came that does not follow what the cache holds (its seq
    /// is past the conversation's last one plus one, D8): the data shown
    /// has a hole, so the watcher is not fresh, and a refresh is on its way
    /// (`refresh` next) to fill it. False when it showed nothing yet.
    mutating func gapFound(hasEmitted: Bool) -> Bool {
        guard hasEmitted else { return false }
        fresh = false
        refreshing = .refreshing
        return true
    }

    // MARK: The realtime link and the network

    /// The realtime link is down: a watcher that said fresh shows the same
    /// data, no longer fresh (D1).
    /// It says `refreshing`, not `refreshed`: a watcher that is not fresh
    /// says a refresh will follow (the link's return brings one), or that
    /// the last one failed (issue 25: `refreshed` means fresh).
    mutating func linkLost(hasEmitted: Bool) -> [Action] {
        guard fresh, hasEmitted else { return [] }
        fresh = false
        if refreshing == .refreshed { refreshing = .refreshing }
        return [.emit]
    }

    /// Whether to refresh once the link is back: every watcher when it
    /// cannot know what it missed (`all`), else those not fresh, unless a
    /// refresh is already on its way (one started when the network came
    /// back).
    func refreshesOnReconnection(all: Bool, hasEmitted: Bool) -> Bool {
        guard hasEmitted else { return false }
        if all { return true }
        return !pending.values.contains(.shownPages) && !fresh
    }

    /// Whether to refresh now that the network is back: the last refresh failed.
    var refreshesWhenNetworkReturns: Bool {
        if case .failed = refreshing { true } else { false }
    }

    // MARK: Pages

    /// One more page (D3): the server's next one while it has more (pages
    /// stay contiguous), else the cache's. A single conversation has no
    /// pages; a conversation only on this device has no server pages.
    mutating func loadMore(localOnly: Bool) -> [Action] {
        switch target {
        case .conversation:
            return []
        case .conversations, .items:
            if serverExhausted || (target.isItems && localOnly) {
                pages += 1
                return [.emit]
            }
            return [.fetch(startFetch(.nextPage(cursor: serverCursor)))]
        }
    }

    /// The next page came: the watcher shows one more.
    mutating func pageFetched(_ id: Int, end: ListEnd) -> [Action] {
        guard pending.removeValue(forKey: id) != nil else { return [] }
        record(end)
        pages += 1
        return [.emit]
    }

    /// The next page could not be fetched. Offline, messages the cache
    /// holds beyond what is shown still make a page (`cacheHasMore` is
    /// asked only then); otherwise the failure stands and is returned.
    mutating func pageFailed(_ id: Int, error: ChatError, cacheHasMore: () -> Bool) -> Result<[Action], ChatError> {
        guard pending.removeValue(forKey: id) != nil else { return .success([]) }
        guard target.isItems, error.code.isRetryable, cacheHasMore() else { return .failure(error) }
        pages += 1
        return .success([.emit])
    }

    /// An answer that fits no fetch (the server answered another kind):
    /// the fetch is no longer waited for, and nothing changes.
    mutating func abandon(_ id: Int) {
        pending[id] = nil
    }

    // MARK: Helpers

    private mutating func startFetch(_ kind: Fetch.Kind) -> Fetch {
        lastFetchID += 1
        pending[lastFetchID] = kind
        return Fetch(id: lastFetchID, kind: kind)
    }

    private mutating func record(_ end: ListEnd) {
        switch end {
        case .more(let cursor):
            serverCursor = cursor
            serverExhausted = false
        case .end:
            serverCursor = nil
            serverExhausted = true
        }
    }
}
