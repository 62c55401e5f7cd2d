internal import ChatCore

extension SessionMachine {
    // MARK: The app

    /// A user and a way to sign them in were given: what was under way for
    /// the previous session (authentications, calls, the refresh timer)
    /// no longer counts.
    mutating func identify(userId: String?, credential: Credential) -> [Action] {
        forgetPending()
        return changes(.identify(userId: userId, credential: credential))
    }

    /// Everything forgotten (clear, logout, disconnect).
    mutating func clear() -> [Action] {
        forgetPending()
        return changes(.cleared)
    }

    /// The client shut down: nothing under way counts any more, and the
    /// session stays as it is.
    mutating func shutDown() {
        forgetPending()
    }

    /// The server refused `token` as expired before we thought: the next
    /// token needed is refreshed.
    mutating func tokenExpired(_ token: String) {
        handle(.accessTokenExpired(token))
    }

    /// What an app call does when the server refused its request (A2).
    enum Refusal: Sendable, Hashable {
        /// The user was cleared or set again meanwhile: the call fails
        /// with `userCleared`.
        case userChanged
        /// The token expired before we thought: the next one is refreshed,
        /// and the request goes once more with it.
        case replay
        /// The server refused the token as invalid: the session ends (the
        /// client performs these actions), and the call fails with
        /// `sessionClosed`.
        case endSession([Action])
        /// Any other refusal, or any refusal of the replayed request: the
        /// call fails with the server's error.
        case fail
    }

    /// Call `call`'s request, sent with `token` (`replayed`: for the second
    /// time), was refused with `code`: what the call does. A request is
    /// replayed once, never more.
    mutating func refused(_ call: Int, code: ChatError.Code, token: String, replayed: Bool) -> Refusal {
        guard !replayed, code == .expiredToken || code == .invalidToken else { return .fail }
        guard isOpen(call) else { return .userChanged }
        guard code == .expiredToken else { return .endSession(end(reason: "invalidToken")) }
        tokenExpired(token)
        return .replay
    }

    /// The session ends for good (an invalid token, a refresh loop): the
    /// refresh timer stops and the realtime link closes.
    mutating func end(reason: String) -> [Action] {
        stopRefreshTimers()
        return [.cancelRefresh, .closeRealtime] + changes(.closed(reason: reason))
    }

    /// The proactive refresh timer `id` fired: a refresh, unless the
    /// session it was set for is gone (the user was cleared or set again).
    mutating func refreshTimerFired(_ id: Int) -> [Action] {
        takeRefreshTimer(id) ? [.refreshNow] : []
    }

    // MARK: Authentication

    /// A token is needed (a request, the realtime link, the refresh timer
    /// with `forceRefresh`): `succeed` with the one the session holds while
    /// it is usable, `fail` when the session cannot have one; nil when a
    /// run must get one.
    mutating func tokenNeeded(forceRefresh: Bool, now: Instant, margin: Duration) -> Action? {
        if forceRefresh, let token = tokens?.accessToken { tokenExpired(token) }
        switch nextStep(now: now, margin: margin) {
        case .use(let token): return .succeed(accessToken: token)
        case .fail(let error): return .fail(error)
        case .refresh, .askProvider, .signIn: return nil
        }
    }

    /// The run's next step: an attempt to perform, or its end.
    mutating func nextRound(_ id: Int, now: Instant, margin: Duration) -> [Action] {
        guard let run = takeRound(id) else { return [.fail(Self.userChanged)] }
        guard run.roundsLeft > 0 else {
            finish(id)
            guard case .token = run.purpose else { return [.fail(ChatError(.sessionClosed, "Sign-in kept failing"))] }
            return changes(.closed(reason: "authentication keeps failing"))
                + [.fail(ChatError(.sessionClosed, "Authentication kept failing; the session was closed"))]
        }
        let step = nextStep(now: now, margin: margin)
        if case .login(let fallback, let carrying) = run.purpose {
            // A login signs in, with the credential as it stands (a
            // delegate may have renewed it).
            let request = if case .signIn(let request) = step { request } else { fallback }
            return changes(.authenticating) + [attempt(.signIn(request, carrying: carrying), for: id)]
        }
        switch step {
        case .use(let token):
            return finish(id, .succeed(accessToken: token))
        case .fail(let error):
            return finish(id, .fail(error))
        case .refresh(let refreshToken):
            if noteRefresh(at: now) {
                finish(id)
                return end(reason: "refresh loop")
                    + [
                        .fail(
                            ChatError(
                                .sessionClosed, "The session refreshed more than 5 times in a minute; it was closed instead of looping"))
                    ]
            }
            return changes(.refreshing) + [attempt(.refresh(refreshToken: refreshToken), for: id)]
        case .askProvider(let user):
            guard hasProvider else {
                return changes(.needsCredentials(reason: "no token provider"))
                    + finish(id, .fail(Self.noProvider))
            }
            return changes(.authenticating) + [attempt(.provider(userId: user), for: id)]
        case .signIn(let request):
            return changes(.authenticating) + [attempt(.signIn(request, carrying: nil), for: id)]
        }
    }

    // MARK: Helpers

    static let noProvider = ChatError(.providerFailed, "No SessionTokenProvider was given to the client")

    /// The error of a call or an answer that outlived its user.
    static let userChanged = ChatError(.userCleared, "The user changed while the call was in flight")

    /// Applies a transition: the state to publish, if it changed.
    mutating func changes(_ event: Event) -> [Action] {
        handle(event).map { [.publish(.sessionChanged($0))] } ?? []
    }

    /// After every sign-in or refresh: a renewal is told, and the
    /// proactive refresh is set a little before the access token expires,
    /// or at expiry when the tokens live shorter than the margin or the
    /// last refresh did not extend them (never in the past: that would loop, A2).
    mutating func signedIn(now: Instant, margin: Duration) -> [Action] {
        var actions: [Action] = []
        if takeRenewal() {
            actions += [.publish(.sessionWasRefreshed), .tellSessionDelegate(.sessionWasRefreshed)]
        }
        if let tokens {
            let early = tokens.accessExpiresAt - margin
            let id = startRefreshTimer()
            actions.append(.scheduleRefresh(id: id, at: early > now && !refreshDidNotExtend ? early : tokens.accessExpiresAt))
        } else {
            actions.append(.cancelRefresh)
        }
        return actions + [.signedIn]
    }
}
