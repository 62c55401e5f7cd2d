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
        #expect(link.ended(reachable: reachable, closedByServer: closedByServer) == state)
    }

    @Test func backOffGrowsWithEachFailedAttemptAndStartsAgainOnceOpen() {
        var link = RealtimeLinkMachine()
        var waits: [RealtimeLinkMachine.Wait] = []
        var states: [ConnectionState] = []
        for _ in 0..<7 {
            states.append(link.ended(reachable: true, closedByServer: nil))
            waits.append(link.nextWait(fraction: { 0 }))
        }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30].map { .backoff(.milliseconds($0 * 500)) })
        #expect(states.last == .waitingForNetwork(.backoff(attempt: 7)))
        _ = link.opened(hadCursor: true)
        _ = link.ended(reachable: true, closedByServer: nil)
        #expect(link.nextWait(fraction: { 0.999_999 }) == .backoff(.milliseconds(999)))
    }

    /// Offline, the client waits for the network and draws no randomness
    /// (a seeded world's later ids stay as they were).
    @Test func offlineWaitsForTheNetworkWithoutDrawingJitter() {
        var link = RealtimeLinkMachine()
        var draws = 0
        _ = link.ended(reachable: false, closedByServer: nil)
        #expect(
            link.nextWait(fraction: {
                draws += 1
                return 0.5
            }) == .network)
        #expect(draws == 0)
        // An attempt counts offline too: the next back-off online is the second.
        #expect(link.ended(reachable: true, closedByServer: nil) == .waitingForNetwork(.backoff(attempt: 2)))
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
        let link = RealtimeLinkMachine()
        #expect(link.waitsAgain(reachable: false) == .network)
        #expect(link.waitsAgain(reachable: true) == nil)
        #expect(RealtimeLinkMachine.networkWait == .seconds(86_400))
    }
}
