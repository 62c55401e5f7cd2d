import ChatCore
import Testing

@testable import ChatSDK

/// The session machine under orders only a network produces: answers that
/// come back after the user was cleared or set again, an answer for a
/// superseded attempt, two failures at once; and its bounds (the refresh
/// loop breaker, rounds that keep failing, a closed session).
@Suite struct SessionMachineOrderTests {
    typealias Answer = SessionMachine.Answer
    let t0 = SessionDriver.t0

    /// Each kind of attempt under way, and the answers it can get.
    static let pendingAttempts: [(String, @Sendable (inout SessionDriver) -> Int, [Answer])] = [
        (
            "provider",
            { driver in
                let (fixture, run) = SessionFixture.authenticating.driver
                driver = fixture
                return run!
            },
            [.provider(.tokens(SessionDriver.tokens("2"))), .provider(.failed(ChatError(.providerTimeout, "late"))), .provider(.cancelled)]
        ),
        (
            "refresh",
            { driver in
                let (fixture, run) = SessionFixture.refreshing.driver
                driver = fixture
                return run!
            },
            [
                .refresh(.success(.tokens(SessionDriver.tokens("2")))), .refresh(.failure(ChatError(.invalidRefreshToken, "no"))),
                .refresh(.failure(ChatError(.offline, "no network"))),
            ]
        ),
        (
            "sign-in",
            { driver in
                _ = driver.identify("alice", .jwt("j1"))
                return driver.start().run
            },
            [
                .signIn(.success(SessionDriver.session("alice", "2"))), .signIn(.failure(ChatError(.offline, "no network"))),
                .signIn(.failure(ChatError(.networkFailure, "lost"))), .signIn(.failure(ChatError(.userCleared, "cancelled"))),
                .signIn(.failure(ChatError(.expiredJWT, "old"))), .signIn(.failure(ChatError(.invalidJWT, "bad"))),
            ]
        ),
        (
            "session delegate",
            { $0.refusedSignIn("dave", .sessionToken("st1"), .expiredSessionToken) },
            [
                .sessionDelegate(.renewed(sessionToken: "st2")), .sessionDelegate(.declined),
                .sessionDelegate(.failed(ChatError(.forbidden, "no"))),
            ]
        ),
        (
            "authentication delegate",
            { $0.refusedSignIn("alice", .jwt("j1"), .expiredJWT) },
            [.authenticationDelegate(jwt: "j2"), .authenticationDelegate(jwt: nil)]
        ),
    ]

    /// What can happen while an attempt is under way that makes it late.
    static let interruptions: [(String, @Sendable (inout SessionDriver) -> Void)] = [
        ("clear", { _ = $0.clear() }),
        ("another user", { _ = $0.identify("bob", .provider) }),
        ("the same user set again", { _ = $0.identify($0.machine.userId ?? "alice", .jwt("j3")) }),
        ("shut down", { $0.machine.shutDown() }),
    ]

    @Test func anAnswerAfterAClearOrANewUserChangesNothing() {
        for (attempt, setUp, answers) in Self.pendingAttempts {
            for (interruption, interrupt) in Self.interruptions {
                for answer in answers {
                    var driver = SessionDriver()
                    let run = setUp(&driver)
                    interrupt(&driver)
                    let before = driver.machine
                    let actions = driver.answer(run, answer)
                    #expect(actions.count == 1 && actions[0].hasPrefix("fail "), "\(attempt), \(interruption): \(answer)")
                    #expect(driver.machine == before, "\(attempt), \(interruption): \(answer)")
                }
            }
        }
    }

    /// The error a late answer ends its run with: what a sign-in that could
    /// not go out says, else that the user changed.
    @Test func aLateAnswerSaysWhatItCan() {
        #expect(SessionMachine.late(.signIn(.failure(ChatError(.offline, "no network")))) == ChatError(.offline, "no network"))
        #expect(SessionMachine.late(.signIn(.failure(ChatError(.networkFailure, "lost")))) == ChatError(.networkFailure, "lost"))
        #expect(SessionMachine.late(.provider(.cancelled)) == SessionMachine.providerCancelled)
        #expect(SessionMachine.late(.refresh(.failure(ChatError(.offline, "no network")))) == SessionMachine.userChanged)
        #expect(SessionMachine.late(.signIn(.success(.ok))) == SessionMachine.userChanged)
        #expect(SessionMachine.userChanged.code == .userCleared)
    }

    @Test func aProviderAnswerForASupersededAttemptIsIgnored() {
        var driver = SessionDriver()
        _ = driver.identify("alice", .provider)
        let first = driver.start().run
        _ = driver.clear()
        _ = driver.identify("alice", .provider)
        let second = driver.start()
        #expect(second.actions == ["state authenticating(alice)", "ask provider for alice"])
        #expect(driver.answer(first, .provider(.tokens(SessionDriver.tokens("1")))) == ["fail userCleared"])
        #expect(driver.machine.state == .authenticating(userId: "alice") && driver.machine.tokens == nil)
        #expect(
            driver.answer(second.run, .provider(.tokens(SessionDriver.tokens("2")))) == [
                "state authenticated(alice, via: tokens)", "refresh at +3570s", "signed in", "succeed at_2_token",
            ])
        // Answered once, an attempt is no longer pending.
        #expect(driver.answer(second.run, .provider(.tokens(SessionDriver.tokens("3")))) == ["fail userCleared"])
        #expect(driver.machine.tokens == SessionDriver.tokens("2"))
    }

    /// A login and a token run both sign in; both fail at once.
    @Test func twoSignInsFailingTogether() {
        var driver = SessionDriver()
        _ = driver.identify("alice", .jwt("j1"))
        let login = driver.start(.login(.loginJWT(jwt: "j1"), carrying: nil))
        let token = driver.start()
        #expect(login.actions == ["state authenticating(alice)", #"send loginJWT(jwt: "j1")"#])
        #expect(token.actions == [#"send loginJWT(jwt: "j1")"#])
        #expect(driver.answer(login.run, .signIn(.failure(ChatError(.offline, "no network")))) == ["state userSet(alice)", "fail offline"])
        #expect(driver.answer(token.run, .signIn(.failure(ChatError(.networkFailure, "lost")))) == ["fail networkFailure"])
        #expect(driver.machine.state == .userSet(userId: "alice") && driver.machine.runs.isEmpty)
    }

    /// A refresh and a sign-in of the same session fail together, in
    /// either order: the session keeps its tokens and says it is
    /// authenticated, whichever answer comes last.
    @Test(arguments: [true, false])
    func aRefreshAndASignInFailingTogether(refreshFirst: Bool) {
        var driver = SessionDriver()
        _ = driver.identify("dave", .sessionToken("st1"))
        driver.machine.handle(.signedIn(userId: "dave", tokens: SessionDriver.tokens("1")))
        driver.machine.tokenExpired("at_1_token")
        let refresh = driver.start()
        let login = driver.start(.login(.connectSessionToken(userId: "dave", sessionToken: "st1"), carrying: nil))
        #expect(refresh.actions == ["state refreshing(dave)", "send refresh(rt_1_token)"])
        #expect(
            login.actions == [
                "state authenticating(dave)", #"send connectSessionToken(userId: "dave", sessionToken: "st1", signature: nil)"#,
            ])
        let refreshFails = Answer.refresh(.failure(ChatError(.offline, "no network")))
        let signInFails = Answer.signIn(.failure(ChatError(.networkFailure, "lost")))
        if refreshFirst {
            #expect(driver.answer(refresh.run, refreshFails) == ["fail offline"])
            #expect(driver.answer(login.run, signInFails) == ["state authenticated(dave, via: session)", "fail networkFailure"])
        } else {
            #expect(driver.answer(login.run, signInFails) == ["state authenticated(dave, via: session)", "fail networkFailure"])
            #expect(driver.answer(refresh.run, refreshFails) == ["fail offline"])
        }
        #expect(driver.machine.state == .authenticated(userId: "dave", via: .session))
        #expect(driver.machine.tokens?.refreshToken == "rt_1_token" && driver.machine.runs.isEmpty)
    }

    /// More than 5 refreshes in a minute is a loop: the session closes
    /// instead (A2).
    @Test func theRefreshLoopBreaker() {
        var (driver, _) = SessionFixture.authenticated.driver
        var token = "at_1_token"
        for i in 0..<5 {
            let now = t0 + .seconds(Int64(i))
            driver.machine.tokenExpired(token)
            let (run, actions) = driver.start(at: now)
            #expect(actions == ["state refreshing(alice)", "send refresh(rt_\(i == 0 ? "1" : "r\(i - 1)")_token)"])
            _ = driver.answer(run, .refresh(.success(.tokens(SessionDriver.tokens("r\(i)")))), at: now)
            token = "at_r\(i)_token"
        }
        driver.machine.tokenExpired(token)
        #expect(
            driver.start(at: t0 + .seconds(5)).actions == [
                "cancel refresh", "close realtime", "state closed(refresh loop)", "fail sessionClosed",
            ])
        #expect(driver.machine.runs.isEmpty && driver.machine.refreshTimers.isEmpty)
    }

    /// A closed session takes no step by itself (A15): not for a token
    /// needed, nor for its refresh timer; the app sets the user again.
    @Test func closedStaysClosed() {
        var (driver, run) = SessionFixture.authenticating.driver
        _ = driver.answer(run!, .provider(.tokens(SessionDriver.tokens("1"))))
        let timer = try! #require(driver.machine.refreshTimers.first)
        _ = driver.machine.end(reason: "invalidToken")
        #expect(driver.machine.refreshTimerFired(timer).isEmpty)
        for _ in 0..<2 { #expect(driver.start().actions == ["fail sessionClosed"]) }
        driver.machine.tokenExpired("at_1_token")
        #expect(driver.machine.state == .closed(reason: "invalidToken"))
        #expect(driver.identify("alice", .provider) == ["state userSet(alice)"])
        #expect(driver.start().actions == ["state authenticating(alice)", "ask provider for alice"])
    }

    /// A session closed while an attempt was under way stays closed when
    /// the attempt then succeeds (A15): the server refused the access
    /// token as invalid during a refresh or a provider call that answers
    /// afterwards with good tokens.
    @Test(arguments: ["provider", "refresh"])
    func aClosedSessionStaysClosedWhenAnAttemptUnderWaySucceeds(attempt: String) {
        var (driver, run) = SessionFixture.authenticating.driver
        var pending = run!
        if attempt == "refresh" {
            _ = driver.answer(pending, .provider(.tokens(SessionDriver.tokens("1"))))
            driver.machine.tokenExpired("at_1_token")
            let refresh = driver.start()
            #expect(refresh.actions.last == "send refresh(rt_1_token)")
            pending = refresh.run
        }
        _ = driver.machine.end(reason: "invalidToken")
        let answer: SessionMachine.Answer =
            attempt == "refresh"
            ? .refresh(.success(.tokens(SessionDriver.tokens("2")))) : .provider(.tokens(SessionDriver.tokens("2")))
        #expect(driver.answer(pending, answer) == ["fail sessionClosed"])
        #expect(driver.machine.state == .closed(reason: "invalidToken"))
        #expect(driver.machine.tokens == nil)
        #expect(driver.start().actions == ["fail sessionClosed"])
    }

    /// A credential that keeps failing ends: a token run after 4 rounds
    /// closes the session; a login after 3 fails and leaves it to the client.
    @Test(arguments: [(SessionMachine.Run.Purpose.token, 4), (.login(.loginJWT(jwt: "j0"), carrying: nil), 3)])
    func roundsThatKeepFailingEnd(purpose: SessionMachine.Run.Purpose, rounds: Int) {
        var driver = SessionDriver()
        _ = driver.identify("alice", .jwt("j0"))
        let (run, first) = driver.start(purpose)
        var sent = [first.last]
        var last: [String] = []
        for i in 1...rounds {
            _ = driver.answer(run, .signIn(.failure(ChatError(.expiredJWT, "old"))))
            last = driver.answer(run, .authenticationDelegate(jwt: "j\(i)"))
            sent.append(last.last)
        }
        #expect(sent.count == rounds + 1 && sent.dropLast().allSatisfy { $0?.hasPrefix("send loginJWT") == true })
        if case .token = purpose {
            #expect(last == ["state closed(authentication keeps failing)", "fail sessionClosed"])
        } else {
            #expect(last == ["fail sessionClosed"])
            #expect(driver.machine.state == .authenticating(userId: "alice"))
        }
        #expect(driver.machine.runs.isEmpty)
    }

    /// The proactive refresh (A2): a little before expiry, at expiry for
    /// tokens shorter than the margin; each timer fires once, and none of
    /// a session that is gone.
    @Test func theProactiveRefreshTimer() {
        var (driver, run) = SessionFixture.authenticating.driver
        let short = SessionDriver.tokens("1", access: .seconds(10))
        #expect(driver.answer(run!, .provider(.tokens(short))).contains("refresh at +10s"))
        let timer = try! #require(driver.machine.refreshTimers.first)
        #expect(driver.machine.refreshTimerFired(timer) == [.refreshNow])
        #expect(driver.machine.refreshTimerFired(timer).isEmpty)
        // Tokens shorter than the margin are refreshed whenever needed; a
        // refresh that gains nothing is used to the end.
        let refresh = driver.start(at: t0 + .seconds(1)).run
        let same = TokenPair(
            accessToken: "at_2_token", accessExpiresAt: short.accessExpiresAt, refreshToken: "rt_2_token",
            refreshExpiresAt: short.refreshExpiresAt)
        #expect(driver.answer(refresh, .refresh(.success(.tokens(same))), at: t0 + .seconds(1)).contains("refresh at +10s"))
        #expect(driver.machine.refreshDidNotExtend)
        let next = try! #require(driver.machine.refreshTimers.first)
        _ = driver.clear()
        #expect(driver.machine.refreshTimerFired(next).isEmpty)
    }

    @Test func callsInFlightEndWithTheirUser() {
        var machine = SessionMachine()
        _ = machine.identify(userId: "alice", credential: .provider)
        let a = machine.openCall()
        let b = machine.openCall()
        machine.closeCall(a)
        #expect(!machine.isOpen(a) && machine.isOpen(b))
        _ = machine.identify(userId: "alice", credential: .provider)
        #expect(!machine.isOpen(b))
        let c = machine.openCall()
        _ = machine.clear()
        #expect(!machine.isOpen(c))
        let d = machine.openCall()
        machine.shutDown()
        #expect(!machine.isOpen(d))
    }

    /// What a request brings back counts while the call or authentication
    /// attempt it serves does (performRaw's aliases): an attempt's answer
    /// given back, or a new user, and it no longer does.
    @Test func aRequestCountsWhileItsCallOrAttemptDoes() {
        var machine = SessionMachine()
        _ = machine.identify(userId: "alice", credential: .provider)
        let call = machine.openCall()
        let run = machine.startRun(.token)
        guard case .perform(let attempt) = machine.attempt(.refresh(refreshToken: "rt"), for: run) else {
            Issue.record("no attempt")
            return
        }
        #expect(machine.counts(call) && machine.counts(attempt.id))
        #expect(!machine.counts(run), "a run is not a request")
        _ = machine.takeAttempt(attempt.id)
        #expect(!machine.counts(attempt.id), "answered")
        let next = machine.attempt(.refresh(refreshToken: "rt"), for: run)
        _ = machine.identify(userId: "bob", credential: .provider)
        guard case .perform(let late) = next else { return }
        #expect(!machine.counts(call) && !machine.counts(late.id), "the user changed")
    }
}
