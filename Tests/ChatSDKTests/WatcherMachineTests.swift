import ChatCore
import Testing

@testable import ChatSDK

/// A watcher's decisions, without I/O (issue 14): each input (a refresh,
/// its answer or failure, the link lost, `loadMore`, a page's answer or
/// failure) in each state the machine can be in, and the orders only a
/// network produces: an answer after a newer refresh, two failures at
/// once, an answer nobody waits for any more.
@Suite struct WatcherMachineTests {
    let offline = ChatError(.offline, "offline")
    let denied = ChatError(.forbidden, "no")

    /// A machine that refreshed once: fresh when `live`, with the server's
    /// list going on after it or not.
    func refreshedMachine(_ target: WatchTarget = .items("c1"), live: Bool = true, end: WatcherMachine.ListEnd = .more(cursor: "p2"))
        -> WatcherMachine
    {
        var machine = WatcherMachine(target: target)
        _ = machine.refreshed(fetchID(machine.refresh(localOnly: false)), end: end, live: live)
        return machine
    }

    func fetchID(_ actions: [WatcherMachine.Action]) -> Int {
        for case .fetch(let fetch) in actions { return fetch.id }
        Issue.record("no fetch in \(actions)")
        return -1
    }

    // MARK: Refresh

    @Test func aNewWatcherFetchesWhatItShowsAndIsNotFreshYet() {
        var machine = WatcherMachine(target: .conversations)
        #expect(machine.refreshing == .refreshing && !machine.fresh && machine.pages == 1)
        let actions = machine.refresh(localOnly: false)
        #expect(actions == [.fetch(.init(id: 1, kind: .shownPages))])
        #expect(machine.pending == [1: .shownPages])
    }

    @Test(arguments: [true, false])
    func itsAnswerMakesItFreshOnlyWhileTheLinkCanBeLive(live: Bool) {
        var machine = WatcherMachine(target: .items("c1"))
        let id = fetchID(machine.refresh(localOnly: false))
        #expect(machine.refreshed(id, end: .more(cursor: "p2"), live: live) == [.emitAllConcerned, .emit])
        // Refreshed means fresh (issue 25): fetched while the link is down, it
        // says a refresh will follow.
        #expect(machine.fresh == live && machine.refreshing == (live ? .refreshed : .refreshing))
        #expect(machine.serverCursor == "p2" && !machine.serverExhausted && machine.pending.isEmpty)
    }

    @Test func theEndOfTheServersListIsKept() {
        let machine = refreshedMachine(end: .end)
        #expect(machine.serverCursor == nil && machine.serverExhausted)
    }

    @Test func aSingleConversationsAnswerLeavesTheListStateAsItWas() {
        var machine = WatcherMachine(target: .conversation("c1"))
        let id = fetchID(machine.refresh(localOnly: false))
        _ = machine.refreshed(id, end: nil, live: true)
        #expect(machine.serverCursor == nil && !machine.serverExhausted && machine.fresh)
    }

    @Test(arguments: [WatchTarget.conversation("c1"), .items("c1")])
    func aConversationOnlyOnThisDeviceIsFreshWithoutAskingTheServer(target: WatchTarget) {
        var machine = WatcherMachine(target: target)
        #expect(machine.refresh(localOnly: true) == [.emit])
        #expect(machine.fresh && machine.refreshing == .refreshed && machine.pending.isEmpty)
    }

    @Test func aFailureBeforeAnythingWasShownEndsTheWatcher() {
        var machine = WatcherMachine(target: .conversation("c1"))
        let id = fetchID(machine.refresh(localOnly: false))
        #expect(machine.refreshFailed(id, error: denied, hasEmitted: false) == [.finish(denied)])
    }

    @Test func aFailureAfterDataWasShownKeepsItNotFreshAndSaysWhy() {
        var machine = refreshedMachine()
        let id = fetchID(machine.refresh(localOnly: false))
        #expect(machine.refreshing == .refreshing && machine.fresh, "a refresh under way keeps what it knew")
        #expect(machine.refreshFailed(id, error: offline, hasEmitted: true) == [.emit])
        #expect(!machine.fresh && machine.refreshing == .failed(offline))
    }

    @Test func aRetryAfterAFailureFirstSaysARefreshIsUnderWay() {
        var machine = refreshedMachine()
        _ = machine.refreshFailed(fetchID(machine.refresh(localOnly: false)), error: offline, hasEmitted: true)
        #expect(machine.refreshesWhenNetworkReturns)
        let actions = machine.refresh(localOnly: false)
        #expect(actions.first == .emit && actions.count == 2)
        #expect(machine.refreshing == .refreshing && !machine.refreshesWhenNetworkReturns)
    }

    // MARK: Orders a network produces

    @Test func anAnswerNobodyWaitsForChangesNothing() {
        var machine = refreshedMachine(live: false)
        let before = machine
        #expect(machine.refreshed(99, end: .end, live: true) == [])
        #expect(machine.refreshFailed(99, error: offline, hasEmitted: true) == [])
        #expect(machine.pageFetched(99, end: .end) == [])
        #expect(machine.pageFailed(99, error: offline, cacheHasMore: { true }) == .success([]))
        #expect(machine == before)
    }

    @Test func anAnswerCountsOnce() {
        var machine = WatcherMachine(target: .items("c1"))
        let id = fetchID(machine.refresh(localOnly: false))
        _ = machine.refreshed(id, end: .more(cursor: "p2"), live: true)
        #expect(machine.refreshed(id, end: .end, live: false) == [])
        #expect(machine.refreshFailed(id, error: offline, hasEmitted: true) == [])
        #expect(machine.fresh && machine.serverCursor == "p2")
    }

    /// Two refreshes under way (the network came back, then the link):
    /// each answer counts, the last one decides.
    @Test func twoRefreshesUnderWayEachCountInTheOrderTheyCome() {
        var machine = refreshedMachine()
        let first = fetchID(machine.refresh(localOnly: false))
        let second = fetchID(machine.refresh(localOnly: false))
        #expect(first != second && machine.pending.count == 2)
        _ = machine.refreshed(second, end: .more(cursor: "new"), live: true)
        #expect(machine.refreshFailed(first, error: offline, hasEmitted: true) == [.emit])
        #expect(!machine.fresh && machine.refreshing == .failed(offline) && machine.serverCursor == "new")
    }

    @Test func twoFailuresAtOnceLeaveOneFailedState() {
        var machine = refreshedMachine()
        let first = fetchID(machine.refresh(localOnly: false))
        let second = fetchID(machine.refresh(localOnly: false))
        _ = machine.refreshFailed(first, error: offline, hasEmitted: true)
        _ = machine.refreshFailed(second, error: denied, hasEmitted: true)
        #expect(machine.refreshing == .failed(denied) && machine.pending.isEmpty)
    }

    @Test func aPageAnswerAfterARefreshStartedStillShowsOneMorePage() {
        var machine = refreshedMachine()
        let page = fetchID(machine.loadMore(localOnly: false))
        let refresh = fetchID(machine.refresh(localOnly: false))
        #expect(machine.pageFetched(page, end: .more(cursor: "p3")) == [.emit])
        #expect(machine.pages == 2 && machine.pending == [refresh: .shownPages])
    }

    @Test func anAbandonedFetchIsNoLongerWaitedFor() {
        var machine = refreshedMachine()
        let page = fetchID(machine.loadMore(localOnly: false))
        machine.abandon(page)
        #expect(machine.pending.isEmpty)
        #expect(machine.pageFetched(page, end: .end) == [] && machine.pages == 1)
    }

    // MARK: The link

    @Test func losingTheLinkMakesAFreshWatcherThatShowedDataStale() {
        var machine = refreshedMachine()
        #expect(machine.linkLost(hasEmitted: true) == [.emit])
        #expect(!machine.fresh)
        #expect(machine.linkLost(hasEmitted: true) == [], "already stale")
    }

    /// Refreshed means fresh (issue 25): a watcher that is not fresh says a
    /// refresh will follow, or that the last one failed.
    @Test func aStaleWatcherSaysARefreshWillFollow() {
        var machine = refreshedMachine()
        #expect(machine.refreshing == .refreshed)
        _ = machine.linkLost(hasEmitted: true)
        #expect(machine.refreshing == .refreshing && !machine.fresh)
        // Data fetched while the link is down is not fresh either.
        let offlineFetch = refreshedMachine(live: false)
        #expect(offlineFetch.refreshing == .refreshing && !offlineFetch.fresh)
        // A failed refresh keeps saying so when the link goes.
        var failed = refreshedMachine()
        _ = failed.refreshFailed(fetchID(failed.refresh(localOnly: false)), error: offline, hasEmitted: true)
        _ = failed.linkLost(hasEmitted: true)
        #expect(failed.refreshing == .failed(offline))
    }

    /// A message that does not follow what the cache holds (D8) leaves the
    /// watcher not fresh, refreshing, until its refresh fills the hole.
    @Test func aGapMakesAFreshWatcherRefresh() {
        var machine = refreshedMachine()
        let found = machine.gapFound(hasEmitted: true)
        #expect(found)
        #expect(!machine.fresh && machine.refreshing == .refreshing)
        let id = fetchID(machine.refresh(localOnly: false))
        #expect(machine.refreshed(id, end: .end, live: true) == [.emitAllConcerned, .emit])
        #expect(machine.fresh && machine.refreshing == .refreshed)
        var unseen = refreshedMachine()
        let unseenFound = unseen.gapFound(hasEmitted: false)
        #expect(!unseenFound, "nothing shown, nothing to correct")
    }

    @Test func losingTheLinkBeforeAnythingWasShownEmitsNothing() {
        var machine = refreshedMachine()
        #expect(machine.linkLost(hasEmitted: false) == [])
        #expect(machine.fresh)
    }

    /// Reconnection: (all?, refreshing state, fresh, shown) → refresh?
    @Test func whoRefreshesOnReconnection() {
        var fresh = refreshedMachine()
        #expect(!fresh.refreshesOnReconnection(all: false, hasEmitted: true))
        #expect(fresh.refreshesOnReconnection(all: true, hasEmitted: true))
        #expect(!fresh.refreshesOnReconnection(all: true, hasEmitted: false))
        _ = fresh.linkLost(hasEmitted: true)
        #expect(fresh.refreshesOnReconnection(all: false, hasEmitted: true))
        // A refresh already under way (started when the network returned).
        var underWay = fresh
        _ = underWay.refresh(localOnly: false)
        #expect(!underWay.refreshesOnReconnection(all: false, hasEmitted: true))
        #expect(underWay.refreshesOnReconnection(all: true, hasEmitted: true))
        // Failed: not fresh, not under way.
        var failed = fresh
        _ = failed.refreshFailed(fetchID(failed.refresh(localOnly: false)), error: offline, hasEmitted: true)
        #expect(failed.refreshesOnReconnection(all: false, hasEmitted: true))
    }

    // MARK: Pages

    @Test func loadMoreFollowsTheServersCursorWhileItHasMore() {
        var machine = refreshedMachine(.conversations)
        let actions = machine.loadMore(localOnly: false)
        guard case .fetch(let fetch) = actions.first else {
            Issue.record("no fetch: \(actions)")
            return
        }
        #expect(fetch.kind == .nextPage(cursor: "p2") && machine.pages == 1)
        #expect(machine.pageFetched(fetch.id, end: .end) == [.emit])
        #expect(machine.pages == 2 && machine.serverExhausted)
        #expect(machine.loadMore(localOnly: false) == [.emit], "then the cache serves")
        #expect(machine.pages == 3)
    }

    @Test func aLocalConversationsPagesComeFromTheCache() {
        var machine = WatcherMachine(target: .items("c1"))
        _ = machine.refresh(localOnly: true)
        #expect(machine.loadMore(localOnly: true) == [.emit] && machine.pages == 2)
    }

    @Test func aSingleConversationHasNoPages() {
        var machine = refreshedMachine(.conversation("c1"))
        #expect(machine.loadMore(localOnly: false) == [] && machine.pages == 1)
    }

    @Test(arguments: [
        (WatchTarget.items("c1"), ChatError.Code.offline, true, true),
        (.items("c1"), .networkFailure, true, true),
        (.items("c1"), .offline, false, false),
        (.items("c1"), .forbidden, true, false),
        (.conversations, .offline, true, false),
    ])
    func aPageThatFailsOfflineComesFromTheCacheWhenItHasMore(target: WatchTarget, code: ChatError.Code, cacheHasMore: Bool, served: Bool) {
        var machine = refreshedMachine(target)
        let id = fetchID(machine.loadMore(localOnly: false))
        let error = ChatError(code, "failed")
        let result = machine.pageFailed(id, error: error, cacheHasMore: { cacheHasMore })
        #expect(result == (served ? .success([.emit]) : .failure(error)))
        #expect(machine.pages == (served ? 2 : 1) && machine.pending.isEmpty)
    }

    @Test func theCacheIsAskedOnlyWhenTheFailureIsTheNetworks() {
        var machine = refreshedMachine()
        let id = fetchID(machine.loadMore(localOnly: false))
        var asked = false
        _ = machine.pageFailed(id, error: denied) {
            asked = true
            return true
        }
        #expect(!asked)
    }
}
