import ChatCore
import Testing

@testable import ChatSDK

/// The session's decisions without I/O (A1–A15).
@Suite struct SessionMachineTransitionTests {
    let t0 = Instant(milliseconds: 1_000_000)
    let margin = Duration.seconds(30)

    func pair(accessFor access: Duration, refreshFor refresh: Duration, from now: Instant) -> TokenPair {
        TokenPair(
            accessToken: "at_access_\(access)", accessExpiresAt: now + access, refreshToken: "rt_refresh_\(refresh)",
            refreshExpiresAt: now + refresh)
    }

    @Test func nobodyMeansNotAuthenticated() {
        let machine = SessionMachine()
        #expect(machine.nextStep(now: t0, margin: margin) == .fail(ChatError.signInFirst()))
        #expect(machine.state == .signedOut)
    }

    @Test func aProviderUserIsAskedForTokensThenUsesThem() {
        var machine = SessionMachine()
        let identified = machine.handle(.identify(userId: "alice", credential: .provider))
        #expect(identified == .userSet(userId: "alice"))
        #expect(machine.nextStep(now: t0, margin: margin) == .askProvider(userId: "alice"))
        let tokens = pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)
        let signedIn = machine.handle(.signedIn(userId: "alice", tokens: tokens))
        #expect(signedIn == .authenticated(userId: "alice", via: .tokens))
        #expect(machine.nextStep(now: t0, margin: margin) == .use(accessToken: tokens.accessToken))
    }

    @Test func aSignInCutOffByTheNetworkLeavesNothingAuthenticating() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .jwt("header.claims.signature")))
        machine.handle(.authenticating)
        // A first sign-in that could not go out: back to the user being set.
        #expect(machine.handle(.signInAborted) == .userSet(userId: "alice"))
        let tokens = pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)
        machine.handle(.signedIn(userId: "alice", tokens: tokens))
        machine.handle(.authenticating)
        // A renewal that could not go out: still signed in with what it holds.
        #expect(machine.handle(.signInAborted) == .authenticated(userId: "alice", via: .jwt))
        // Anywhere else it changes nothing.
        #expect(machine.handle(.signInAborted) == nil)
    }

    @Test func aLittleBeforeExpiryItRefreshes() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .provider))
        let tokens = pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)
        machine.handle(.signedIn(userId: "alice", tokens: tokens))
        #expect(machine.nextStep(now: t0 + .seconds(3569), margin: margin) == .use(accessToken: tokens.accessToken))
        #expect(machine.nextStep(now: t0 + .seconds(3571), margin: margin) == .refresh(refreshToken: tokens.refreshToken))
        machine.handle(.refreshRefused)
        #expect(machine.nextStep(now: t0 + .seconds(3571), margin: margin) == .askProvider(userId: "alice"))
    }

    @Test func anExpiredTokenReplyForcesARefresh() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .provider))
        let tokens = pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)
        machine.handle(.signedIn(userId: "alice", tokens: tokens))
        machine.handle(.accessTokenExpired("another token"))
        #expect(machine.nextStep(now: t0, margin: margin) == .use(accessToken: tokens.accessToken), "only the token that was refused")
        machine.handle(.accessTokenExpired(tokens.accessToken))
        #expect(machine.nextStep(now: t0, margin: margin) == .refresh(refreshToken: tokens.refreshToken))
    }

    @Test func eachCredentialSignsInItsOwnWay() {
        let cases: [(Credential, String?, SessionMachine.Step)] = [
            (.jwt("eyJ.a.b"), "alice", .signIn(.loginJWT(jwt: "eyJ.a.b"))),
            (.anonymous, nil, .signIn(.loginAnonymous)),
            (.userId, "carol", .signIn(.connectUserId(userId: "carol"))),
            (.accessToken("ak"), "carol", .signIn(.connectAccessToken(userId: "carol", accessToken: "ak"))),
            (.sessionToken("st"), "dave", .signIn(.connectSessionToken(userId: "dave", sessionToken: "st"))),
            (.authorized(ChatAuth()), "u-1", .signIn(.connectUserId(userId: "u-1"))),
            (.authorized(ChatAuth(token: "t")), "u-1", .signIn(.connectAccessToken(userId: "u-1", accessToken: "t"))),
        ]
        for (credential, user, step) in cases {
            var machine = SessionMachine()
            machine.handle(.identify(userId: user, credential: credential))
            #expect(machine.nextStep(now: t0, margin: margin) == step, "\(credential)")
        }
    }

    @Test func aJWTSessionSignsInAgainInsteadOfRefreshing() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .jwt("j1")))
        machine.handle(.signedIn(userId: "alice", tokens: pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)))
        #expect(machine.nextStep(now: t0 + .seconds(3600), margin: margin) == .signIn(.loginJWT(jwt: "j1")))
        machine.handle(.credentialRenewed(.jwt("j2")))
        #expect(machine.nextStep(now: t0 + .seconds(3600), margin: margin) == .signIn(.loginJWT(jwt: "j2")))
    }

    @Test func refreshedTokensThatDoNotLastLongerAreUsedToTheEnd() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "dave", credential: .sessionToken("st")))
        let first = pair(accessFor: .seconds(600), refreshFor: .seconds(600), from: t0)
        machine.handle(.signedIn(userId: "dave", tokens: first))
        let same = TokenPair(
            accessToken: "at_second", accessExpiresAt: first.accessExpiresAt, refreshToken: "rt_second",
            refreshExpiresAt: first.refreshExpiresAt)
        machine.handle(.refreshed(same))
        // Inside the margin, but the refresh gained nothing: no new refresh.
        #expect(machine.nextStep(now: t0 + .seconds(590), margin: margin) == .use(accessToken: "at_second"))
    }

    @Test func aRefreshLostOnTheWayKeepsTheSessionAndItsTokens() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .provider))
        let tokens = pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)
        machine.handle(.signedIn(userId: "alice", tokens: tokens))
        machine.handle(.refreshing)
        let restored = machine.handle(.refreshAborted)
        #expect(restored == .authenticated(userId: "alice", via: .tokens))
        #expect(machine.tokens == tokens)
        #expect(!machine.refreshDidNotExtend, "nothing was refreshed")
    }

    @Test func tooManyRefreshesInAMinuteIsALoop() {
        var machine = SessionMachine()
        for i in 0..<5 {
            let loop = machine.noteRefresh(at: t0 + .seconds(Int64(i)))
            #expect(!loop)
        }
        let sixth = machine.noteRefresh(at: t0 + .seconds(5))
        #expect(sixth)
        var calm = SessionMachine()
        for i in 0..<10 {
            let loop = calm.noteRefresh(at: t0 + .seconds(Int64(i * 61)))
            #expect(!loop)
        }
    }

    @Test func switchingRules() {
        var machine = SessionMachine()
        #expect(machine.admits(userId: "alice", credential: .provider) == .allowed)
        machine.handle(.identify(userId: "alice", credential: .provider))
        #expect(machine.admits(userId: "alice", credential: .provider) == .noChange)
        if case .refused(let error) = machine.admits(userId: "bob", credential: .provider) {
            #expect(error.code == .currentUserAlreadySet)
        } else {
            Issue.record("bob must be refused")
        }
        machine.handle(.cleared)
        #expect(machine.state == .signedOut)
        #expect(machine.admits(userId: "bob", credential: .provider) == .allowed)
    }

    @Test func anAnonymousUserMayLogInAsSomeone() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: nil, credential: .anonymous))
        machine.handle(.signedIn(userId: "anon-1", tokens: pair(accessFor: .seconds(3600), refreshFor: .seconds(86_400), from: t0)))
        #expect(machine.state == .authenticated(userId: "anon-1", via: .anonymous))
        #expect(machine.admits(userId: "alice", credential: .jwt("j")) == .allowed)
    }

    @Test func authorizingAnotherUserReconfigures() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "u-1", credential: .authorized(ChatAuth())))
        #expect(machine.admits(userId: "u-1", credential: .authorized(ChatAuth())) == .noChange)
        #expect(machine.admits(userId: "u-2", credential: .authorized(ChatAuth())) == .reconfigure(previous: "u-1"))
    }

    @Test func aClosedSessionTakesNoStepUntilTheUserIsSetAgain() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .provider))
        machine.handle(.closed(reason: "invalidToken"))
        guard case .fail(let error) = machine.nextStep(now: t0, margin: margin) else {
            Issue.record("a closed session asked for tokens by itself")
            return
        }
        #expect(error.code == .sessionClosed)
        #expect(machine.admits(userId: "alice", credential: .provider) == .allowed)
        machine.handle(.identify(userId: "alice", credential: .provider))
        #expect(machine.nextStep(now: t0, margin: margin) == .askProvider(userId: "alice"))
    }

    @Test func closingAndNeedingCredentialsKeepTheReason() {
        var machine = SessionMachine()
        machine.handle(.identify(userId: "alice", credential: .provider))
        let needs = machine.handle(.needsCredentials(reason: "providerFailed"))
        #expect(needs == .needsCredentials(userId: "alice", reason: "providerFailed"))
        let closed = machine.handle(.closed(reason: "invalidToken"))
        #expect(closed == .closed(reason: "invalidToken"))
        #expect(machine.tokens == nil)
    }
}
