import ChatCore
import Testing

@testable import ChatSDK

/// The realtime link's decisions, without I/O (issue 14): every input
/// (opened with or without a cursor, ended online, offline or closed by the
/// server) from a first connection and from a reconnection.
@Suite struct RealtimeLinkMachineTests {
    @Test func aFirstConnectionNeverRefetchesEverything() {
        for cursor in [false, true] {
            var link = RealtimeLinkMachine()
            let opened = link.opened(hadCursor: cursor)
            #expect(opened.refetchAll == false && opened.state == .connected)
            #expect(link.connectedBefore && link.attempt == 0)
        }
    }

    @Test func aReconnectionWithoutACursorRefetchesEverything() {
        var link = RealtimeLinkMachine()
        _ = link.opened(hadCursor: false)
        #expect(link.opened(hadCursor: false).refetchAll == true)
        #expect(link.opened(hadCursor: true).refetchAll == false)
    }

    @Test(arguments: [
        (true, nil as String?, ConnectionState.waitingForNetwork(.backoff(attempt: 1))),
        (true, "tokens revoked", .waitingForNetwork(.closedByServer("tokens revoked"))),
        (false, nil, .waitingForNetwork(.offline)),
        (false, "tokens revoked", .waitingForNetwork(.offline)),
    ])
    func anEndSaysWhy(reachable: Bool, closedByServer: String?, state: ConnectionState) {
        var link = RealtimeLinkMachine()
        _ = link.networkChanged(reachable: reachable)
        #expect(link.ended(closedByServer: closedByServer) == state)
        #expect(link.waiting)
    }

    @Test func backOffGrowsWithEachFailedAttemptAndStartsAgainOnceOpen() {
        var link = RealtimeLinkMachine()
        var waits: [RealtimeLinkMachine.Wait] = []
        var states: [ConnectionState] = []
        for _ in 0..<7 {
            states.append(link.ended(closedByServer: nil))
            waits.append(link.nextWait(fraction: { 0 }))
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30].map { .backoff(.milliseconds($0 * 500)) })
        #expect(states.last == .waitingForNetwork(.backoff(attempt: 7)))
        _ = link.opened(hadCursor: true)
        _ = link.ended(closedByServer: nil)
        #expect(link.nextWait(fraction: { 0.999_999 }) == .backoff(.milliseconds(999)))
    }

    /// Offline, the client waits for the network and draws no randomness
    /// (a seeded world's later ids stay as they were).
    @Test func offlineWaitsForTheNetworkWithoutDrawingJitter() {
        var link = RealtimeLinkMachine()
        var draws = 0
        #expect(link.networkChanged(reachable: false) == [.networkWent])
        _ = link.ended(closedByServer: nil)
        #expect(
            link.nextWait(fraction: {
                draws += 1
                return 0.5
            }) == .network)
        #expect(draws == 0)
        // An attempt counts offline too: the next back-off online is the second.
        _ = link.networkChanged(reachable: true)
        #expect(link.ended(closedByServer: nil) == .waitingForNetwork(.backoff(attempt: 2)))
        #expect(
            link.nextWait(fraction: {
                draws += 1
                return 0
            }) == .backoff(.milliseconds(1000)))
        #expect(draws == 1)
    }

    /// What ended an attempt decides what the link does next, in one place
    /// (issue 25, Shape): before, the actor's catch clauses decided.
    @Test func whatEndedAnAttemptDecidesWhatTheLinkDoes() {
        #expect(RealtimeLinkMachine.afterError(ChatError(.userCleared, "x")) == .stop)
        #expect(RealtimeLinkMachine.afterError(ChatError(.sessionClosed, "x")) == .stop)
        #expect(RealtimeLinkMachine.afterError(ChatError(.notAuthenticated, "x")) == .stop)
        #expect(RealtimeLinkMachine.afterError(WireError(.expiredToken)) == .renewToken)
        #expect(RealtimeLinkMachine.afterError(WireError(.invalidToken)) == .endSession(reason: "invalidToken"))
        #expect(RealtimeLinkMachine.afterError(TransportError(.refused, "no")) == .wait)
        #expect(RealtimeLinkMachine.afterError(ChatError(.networkFailure, "x")) == .wait)
        #expect(RealtimeLinkMachine.afterError(CancellationError()) == .wait)
    }

    /// After a back-off, the link waits again for a network that went
    /// meanwhile, a day at a time, and tries a connection once it is back.
    @Test func aNetworkThatWentDuringTheBackOffIsWaitedFor() {
        var link = RealtimeLinkMachine()
        _ = link.ended(closedByServer: nil)
        _ = link.nextWait(fraction: { 0 })
        _ = link.networkChanged(reachable: false)
        #expect(link.waitEnded() == .network)
        #expect(link.waiting, "it waits again")
        _ = link.networkChanged(reachable: true)
        #expect(link.waitEnded() == nil)
        #expect(!link.waiting, "it tries a connection")
        #expect(RealtimeLinkMachine.networkWait == .seconds(86_400))
    }

    // MARK: The network as an input (issue 25, Shape)

    /// The network going while the link waits: it shows offline, and its
    /// back-off ends so that it waits for the network instead; the outbox
    /// hears it too.
    @Test func theNetworkGoingWhileTheLinkWaitsShowsOfflineAndEndsTheWait() {
        var link = RealtimeLinkMachine()
        #expect(link.ended(closedByServer: nil) == .waitingForNetwork(.backoff(attempt: 1)))
        #expect(link.nextWait(fraction: { 0 }) == .backoff(.milliseconds(500)))
        #expect(link.networkChanged(reachable: false) == [.networkWent, .show(.waitingForNetwork(.offline)), .endWait])
        #expect(!link.reachable)
        #expect(link.networkChanged(reachable: false) == [], "news it knew")
    }

    /// Connected (or connecting), the link has no wait to end and shows
    /// what it shows; only the outbox hears that the network went. The
    /// next end says offline, and waits for the network.
    @Test func theNetworkGoingWhileConnectedChangesNothingShown() {
        var link = RealtimeLinkMachine()
        _ = link.opened(hadCursor: false)
        #expect(link.networkChanged(reachable: false) == [.networkWent])
        #expect(link.ended(closedByServer: "bye") == .waitingForNetwork(.offline))
        #expect(link.nextWait(fraction: { 0 }) == .network)
    }

    /// The network coming back: what waited for it goes, and the link's
    /// wait ends at once; the same news again is nothing.
    @Test func theNetworkComingBackEndsTheWaitAndWhatWaitedGoes() {
        var link = RealtimeLinkMachine()
        _ = link.networkChanged(reachable: false)
        _ = link.ended(closedByServer: nil)
        #expect(link.nextWait(fraction: { 0 }) == .network)
        #expect(link.networkChanged(reachable: true) == [.networkReturned, .endWait])
        #expect(link.reachable)
        #expect(link.networkChanged(reachable: true) == [], "the transport saying it again")
        #expect(link.waitEnded() == nil)
    }

    /// The app saying the network is there, which the client knew: the
    /// server may be back, so what backs off goes now. Said of a network
    /// that changed, it is the same news as the transport's.
    @Test func theAppSayingTheNetworkIsThereEndsBackOffs() {
        var link = RealtimeLinkMachine()
        #expect(link.networkChanged(reachable: true, saidByApp: true) == [.resendNow, .endWait])
        #expect(link.networkChanged(reachable: false, saidByApp: true) == [.networkWent])
        #expect(link.networkChanged(reachable: false, saidByApp: true) == [])
        #expect(link.networkChanged(reachable: true, saidByApp: true) == [.networkReturned, .endWait])
    }

    /// What the client heard of the network outlives a run of the link; a
    /// closed link no longer waits, so the network going shows nothing.
    @Test func aNewRunKeepsTheNetworkAndAClosedLinkNoLongerWaits() {
        var link = RealtimeLinkMachine()
        _ = link.opened(hadCursor: true)
        _ = link.networkChanged(reachable: false)
        _ = link.ended(closedByServer: nil)
        link.stopped()
        #expect(!link.waiting)
        link.start()
        #expect(!link.reachable && !link.connectedBefore && link.attempt == 0)
        #expect(link.ended(closedByServer: nil) == .waitingForNetwork(.offline))
        link.stopped()
        #expect(link.networkChanged(reachable: true) == [.networkReturned, .endWait])
        #expect(link.networkChanged(reachable: false) == [.networkWent], "not waiting: nothing to show")
    }
}
