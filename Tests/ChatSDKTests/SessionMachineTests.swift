import ChatCore
import Testing

@testable import ChatSDK

/// The session machine's inputs, without I/O (issue 14): every state ×
/// every input, and the orders only a network produces (an answer after a
/// clear or a new user, an answer for a superseded attempt, two failures
/// at once), in the style of swift-nio-http2's ConnectionStateMachine tests.
@Suite struct SessionMachineTests {
    typealias Answer = SessionMachine.Answer
    let t0 = SessionDriver.t0

    // MARK: A call's refused request

    /// A request refused with an expired token is replayed once; an invalid
    /// token ends the session; a refusal of the replay, or of another kind,
    /// fails the call; a call of a user cleared meanwhile fails as such
    /// (issue 25, Shape: the actor's catch clauses decided before).
    @Test func aRefusedRequestIsReplayedOnceAtMost() {
        var (driver, _) = SessionFixture.authenticated.driver
        let call = driver.machine.openCall()
        #expect(driver.machine.refused(call, code: .expiredToken, token: "at_1_token", replayed: false) == .replay)
        #expect(driver.machine.refused(call, code: .expiredToken, token: "at_2_token", replayed: true) == .fail)
        #expect(driver.machine.refused(call, code: .invalidToken, token: "at_2_token", replayed: true) == .fail)
        #expect(driver.machine.refused(call, code: .unknownConversation, token: "at_1_token", replayed: false) == .fail)
        guard case .endSession(let actions) = driver.machine.refused(call, code: .invalidToken, token: "at_1_token", replayed: false)
        else {
            Issue.record("an invalid token does not end the session")
            return
        }
        #expect(actions.contains(.closeRealtime))
        #expect(driver.machine.state == .closed(reason: "invalidToken"))
        let cleared = driver.machine.openCall()
        _ = driver.machine.clear()
        #expect(driver.machine.refused(cleared, code: .expiredToken, token: "at_1_token", replayed: false) == .userChanged)
    }

    // MARK: Every state × the app's inputs

    @Test(arguments: [
        (SessionFixture.signedOut, ["fail notAuthenticated"]),
        (.userSet, ["state authenticating(alice)", "ask provider for alice"]),
        // A second run asks too: sharing one run is the client's (single flight).
        (.authenticating, ["ask provider for alice"]),
        (.authenticated, ["succeed at_1_token"]),
        (.refreshing, ["send refresh(rt_1_token)"]),
        (.needsCredentials, ["state authenticating(alice)", "ask provider for alice"]),
        (.closed, ["fail sessionClosed"]),
    ])
    func aTokenNeeded(in fixture: SessionFixture, does expected: [String]) {
        var (driver, _) = fixture.driver
        #expect(driver.start().actions == expected)
    }

    /// Before a run: the token the session holds, or why it cannot have
    /// one; nothing when a run must get one.
    @Test(arguments: [
        (SessionFixture.signedOut, ["fail notAuthenticated"]), (.userSet, []), (.authenticating, []),
        (.authenticated, ["succeed at_1_token"]), (.refreshing, []), (.needsCredentials, []), (.closed, ["fail sessionClosed"]),
    ])
    func aTokenNeededBeforeARun(in fixture: SessionFixture, does expected: [String]) {
        var (driver, _) = fixture.driver
        let before = driver.machine
        let action = driver.machine.tokenNeeded(forceRefresh: false, now: t0, margin: SessionDriver.margin)
        #expect(SessionDriver.describe(action.map { [$0] } ?? []) == expected)
        #expect(driver.machine == before)
        // Forced (the refresh timer): the token held is not used.
        let forced = driver.machine.tokenNeeded(forceRefresh: true, now: t0, margin: SessionDriver.margin)
        #expect(SessionDriver.describe(forced.map { [$0] } ?? []) == (fixture == .authenticated ? [] : expected))
    }

    @Test(arguments: SessionFixture.allCases)
    func identifyingForgetsWhatWasUnderWay(in fixture: SessionFixture) {
        var (driver, _) = fixture.driver
        let call = driver.machine.openCall()
        #expect(driver.identify("bob", .jwt("j")) == ["state userSet(bob)"])
        #expect(driver.machine.runs.isEmpty && driver.machine.refreshTimers.isEmpty && !driver.machine.isOpen(call))
        #expect(driver.machine.userId == "bob" && driver.machine.tokens == nil)
    }

    @Test(arguments: SessionFixture.allCases)
    func clearingForgetsEverything(in fixture: SessionFixture) {
        var (driver, _) = fixture.driver
        let call = driver.machine.openCall()
        #expect(driver.clear() == (fixture == .signedOut ? [] : ["state signedOut"]))
        #expect(driver.machine.runs.isEmpty && driver.machine.refreshTimers.isEmpty && !driver.machine.isOpen(call))
        #expect(driver.machine.userId == nil && driver.machine.credential == nil && driver.machine.tokens == nil)
    }

    @Test(arguments: SessionFixture.allCases)
    func endingClosesTheSessionAndStopsTheTimer(in fixture: SessionFixture) {
        var (driver, _) = fixture.driver
        let expected = ["cancel refresh", "close realtime"] + (fixture == .closed ? [] : ["state closed(invalidToken)"])
        #expect(SessionDriver.describe(driver.machine.end(reason: "invalidToken")) == expected)
        #expect(driver.machine.tokens == nil && driver.machine.refreshTimers.isEmpty)
    }

    @Test(arguments: SessionFixture.allCases)
    func shuttingDownKeepsTheSessionAndForgetsWhatWasUnderWay(in fixture: SessionFixture) {
        var (driver, _) = fixture.driver
        let call = driver.machine.openCall()
        let state = driver.machine.state
        driver.machine.shutDown()
        #expect(driver.machine.state == state && driver.machine.runs.isEmpty && !driver.machine.isOpen(call))
    }

    /// An answer whose id no run waits for changes nothing, in any state:
    /// its run's callers fail.
    @Test(arguments: SessionFixture.allCases)
    func anAnswerNobodyWaitsForChangesNothing(in fixture: SessionFixture) {
        let (driver, _) = fixture.driver
        for answer in Self.everyAnswer {
            var machine = driver.machine
            let actions = machine.answered(999, answer, now: t0, margin: SessionDriver.margin)
            #expect(actions == [.fail(SessionMachine.late(answer))], "\(answer)")
            #expect(machine == driver.machine, "\(answer)")
            #expect(machine.refreshTimerFired(999).isEmpty)
        }
    }

    @Test(arguments: SessionFixture.allCases)
    func anExpiredTokenReplyOnlyConcernsThatToken(in fixture: SessionFixture) {
        var (driver, _) = fixture.driver
        let before = driver.machine
        driver.machine.tokenExpired("another token")
        #expect(driver.machine == before)
        driver.machine.tokenExpired("at_1_token")
        #expect(driver.machine.state == before.state)
        if fixture == .authenticated { #expect(driver.start().actions == ["state refreshing(alice)", "send refresh(rt_1_token)"]) }
    }

    // MARK: Every answer in the state that waits for it

    @Test(arguments: [
        (
            Answer.provider(.tokens(SessionDriver.tokens("2"))),
            ["state authenticated(alice, via: tokens)", "refresh at +3570s", "signed in", "succeed at_2_token"]
        ),
        (
            .provider(
                .tokens(
                    TokenPair(
                        accessToken: "short", accessExpiresAt: SessionDriver.t0, refreshToken: "short", refreshExpiresAt: SessionDriver.t0))
            ),
            ["state needsCredentials(alice, malformedTokens)", "fail malformedTokens"]
        ),
        (
            .provider(.tokens(SessionDriver.tokens("2", access: .seconds(-1), refresh: .seconds(-1)))),
            ["state needsCredentials(alice, expiredTokens)", "fail expiredTokens"]
        ),
        (
            .provider(.failed(ChatError(.providerTimeout, "late"))),
            ["state needsCredentials(alice, providerTimeout)", "fail providerTimeout"]
        ),
        (.provider(.cancelled), ["fail userCleared"]),
        // The app's backend out of reach (D7): the network's failure, the
        // next need asks again; the app is not asked for credentials.
        (.provider(.failed(ChatError(.networkFailure, "refused"))), ["state userSet(alice)", "fail networkFailure"]),
        (.provider(.failed(ChatError(.offline, "no network"))), ["state userSet(alice)", "fail offline"]),
        (.signIn(.success(.ok)), ["fail networkFailure"]),
    ])
    func theProviderAnswers(_ answer: Answer, expected: [String]) {
        var (driver, run) = SessionFixture.authenticating.driver
        #expect(driver.answer(run!, answer) == expected)
        #expect(driver.machine.runs.isEmpty, "the run is over")
    }

    @Test(arguments: [
        (
            Answer.refresh(.success(.tokens(SessionDriver.tokens("2")))),
            ["state authenticated(alice, via: tokens)", "refresh at +3570s", "signed in", "succeed at_2_token"]
        ),
        (.refresh(.success(.ok)), ["state authenticated(alice, via: tokens)", "fail networkFailure"]),
        (.refresh(.failure(ChatError(.offline, "no network"))), ["state authenticated(alice, via: tokens)", "fail offline"]),
        // Refused: the credential is used again, in the same run.
        (.refresh(.failure(ChatError(.invalidRefreshToken, "no"))), ["state authenticating(alice)", "ask provider for alice"]),
        (.refresh(.failure(ChatError(.expiredRefreshToken, "no"))), ["state authenticating(alice)", "ask provider for alice"]),
        (.refresh(.failure(ChatError(.expiredSessionToken, "no"))), ["ask session delegate"]),
    ])
    func theServerAnswersARefresh(_ answer: Answer, expected: [String]) {
        var (driver, run) = SessionFixture.refreshing.driver
        #expect(driver.answer(run!, answer) == expected)
    }

    @Test(arguments: [
        (
            Answer.signIn(.success(SessionDriver.session("alice", "2"))),
            ["learn user alice", "state authenticated(alice, via: jwt)", "refresh at +3570s", "signed in", "succeed at_2_token"]
        ),
        (.signIn(.success(.ok)), ["state userSet(alice)", "fail networkFailure"]),
        (.signIn(.failure(ChatError(.offline, "no network"))), ["state userSet(alice)", "fail offline"]),
        (.signIn(.failure(ChatError(.userCleared, "cancelled"))), ["fail userCleared"]),
        (
            .signIn(.failure(ChatError(.expiredJWT, "old"))),
            ["event authenticationFailed(expiredJWT)", "ask authentication delegate after expiredJWT"]
        ),
        (.signIn(.failure(ChatError(.expiredSessionToken, "old"))), ["ask session delegate"]),
        (
            .signIn(.failure(ChatError(.invalidJWT, "bad"))),
            ["event authenticationFailed(invalidJWT)", "state closed(invalidJWT)", "fail invalidJWT"]
        ),
    ])
    func theServerAnswersASignIn(_ answer: Answer, expected: [String]) {
        var driver = SessionDriver()
        _ = driver.identify("alice", .jwt("j1"))
        let (run, first) = driver.start()
        #expect(first == ["state authenticating(alice)", #"send loginJWT(jwt: "j1")"#])
        #expect(driver.answer(run, answer) == expected)
    }

    @Test(arguments: [
        (Answer.authenticationDelegate(jwt: "j2"), [#"send loginJWT(jwt: "j2")"#]),
        // No new JWT: the user is logged out implicitly (A6).
        (.authenticationDelegate(jwt: nil), ["clear locally (expiredJWT)", "fail expiredJWT"]),
    ])
    func theAuthenticationDelegateAnswers(_ answer: Answer, expected: [String]) {
        var driver = SessionDriver()
        let run = driver.refusedSignIn("alice", .jwt("j1"), .expiredJWT)
        #expect(driver.answer(run, answer) == expected)
    }

    @Test(arguments: [
        (
            SessionMachine.Renewal.declined,
            ["state closed(sessionWasClosed)", "event sessionWasClosed", "tell sessionWasClosed", "fail sessionClosed"]
        ),
        (.noDelegate, ["state closed(sessionWasClosed)", "event sessionWasClosed", "fail sessionClosed"]),
        (
            .failed(ChatError(.forbidden, "no")),
            [
                "state needsCredentials(dave, sessionDidHaveError)", "event sessionDidHaveError(forbidden)",
                "tell sessionDidHaveError(forbidden)", "fail forbidden",
            ]
        ),
    ])
    func theSessionDelegateAnswers(_ renewal: SessionMachine.Renewal, expected: [String]) {
        var driver = SessionDriver()
        let run = driver.refusedSignIn("dave", .sessionToken("st1"), .expiredSessionToken)
        #expect(driver.answer(run, .sessionDelegate(renewal)) == expected)
    }

    /// A renewed session token signs in again at once, and the sign-in says
    /// the session was refreshed (A10).
    @Test func aRenewedSessionTokenSignsInAgainAndSaysSo() {
        var driver = SessionDriver()
        let run = driver.refusedSignIn("dave", .sessionToken("st1"), .expiredSessionToken)
        #expect(
            driver.answer(run, .sessionDelegate(.renewed(sessionToken: "st2"))) == [
                #"send connectSessionToken(userId: "dave", sessionToken: "st2", signature: nil)"#
            ])
        #expect(
            driver.answer(run, .signIn(.success(SessionDriver.session("dave", "2")))) == [
                "learn user dave", "state authenticated(dave, via: session)", "event sessionWasRefreshed", "tell sessionWasRefreshed",
                "refresh at +3570s", "signed in", "succeed at_2_token",
            ])
        #expect(!driver.machine.renewedSession)
    }

    @Test func withoutAProviderTheSessionNeedsCredentials() {
        var driver = SessionDriver(hasProvider: false)
        _ = driver.identify("alice", .provider)
        #expect(driver.start().actions == ["state needsCredentials(alice, no token provider)", "fail providerFailed"])
    }

    static let everyAnswer: [Answer] = [
        .provider(.tokens(SessionDriver.tokens("9"))), .provider(.failed(ChatError(.providerFailed, "no"))), .provider(.cancelled),
        .signIn(.success(SessionDriver.session("alice", "9"))), .signIn(.success(.ok)),
        .signIn(.failure(ChatError(.offline, "no network"))), .signIn(.failure(ChatError(.networkFailure, "lost"))),
        .signIn(.failure(ChatError(.userCleared, "cancelled"))), .signIn(.failure(ChatError(.expiredJWT, "old"))),
        .signIn(.failure(ChatError(.invalidJWT, "bad"))), .refresh(.success(.tokens(SessionDriver.tokens("9")))),
        .refresh(.failure(ChatError(.offline, "no network"))), .refresh(.failure(ChatError(.invalidRefreshToken, "no"))),
        .refresh(.failure(ChatError(.expiredSessionToken, "old"))), .sessionDelegate(.renewed(sessionToken: "st9")),
        .sessionDelegate(.declined), .sessionDelegate(.noDelegate), .sessionDelegate(.failed(ChatError(.forbidden, "no"))),
        .authenticationDelegate(jwt: "j9"), .authenticationDelegate(jwt: nil),
    ]
}
