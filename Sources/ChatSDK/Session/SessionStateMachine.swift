internal import ChatCore

/// The session's decisions, without I/O (A1–A15): given what the client
/// holds, what to do to get a usable access token, and how each outcome
/// changes the state. The client's actor performs the steps.
struct SessionStateMachine: Sendable {
    private(set) var userId: String?
    private(set) var credential: Credential?
    private(set) var tokens: TokenPair?
    private(set) var state: SessionState = .signedOut
    /// The last refresh gave tokens that expire no later than before (a
    /// session token running out): use them to the end rather than
    /// refreshing again and again.
    private(set) var refreshDidNotExtend = false
    /// When recent refreshes happened, to stop a refresh loop.
    private(set) var recentRefreshes: [Instant] = []

    /// What to do next to have a usable access token.
    enum Step: Sendable, Hashable {
        case use(accessToken: String)
        case refresh(refreshToken: String)
        /// A sign-in request (JWT, anonymous, connect…).
        case signIn(WireRequest)
        case askProvider(userId: String)
        case fail(ChatError)
    }

    /// Something that happened to the session.
    enum Event: Sendable, Hashable {
        /// A user and a way to sign them in were given.
        case identify(userId: String?, credential: Credential)
        case authenticating
        case refreshing
        case signedIn(userId: String, tokens: TokenPair)
        case refreshed(TokenPair)
        /// The refresh token was refused or expired: sign in again.
        case refreshRefused
        /// The refresh failed on the way (offline, network): the tokens held
        /// stay, and so does the session.
        case refreshAborted
        /// A sign-in failed on the way (offline, network): nothing is in
        /// flight any more; the session is back where it was.
        case signInAborted
        /// The server said the access token expired before we thought.
        case accessTokenExpired(String)
        /// A new credential of the same user (a renewed JWT or session token).
        case credentialRenewed(Credential)
        /// The credential cannot be used without the app's help.
        case needsCredentials(reason: String)
        /// The session ended for good (an invalid token, a refused renewal).
        case closed(reason: String)
        /// Everything forgotten (clear, logout, disconnect).
        case cleared
    }

    /// What the client should do about a step it was asked to take.
    func nextStep(now: Instant, margin: Duration) -> Step {
        guard let credential else { return .fail(ChatError.signInFirst()) }
        // A closed session does not come back by itself (A15): not when the
        // app comes to the foreground, nor on the next request; the app
        // sets its user or logs in again.
        if case .closed(let reason) = state {
            return .fail(ChatError(.sessionClosed, "The session was closed (\(reason)): set the user or log in again"))
        }
        if let tokens, tokens.accessExpiresAt - margin > now || (refreshDidNotExtend && tokens.accessExpiresAt > now) {
            return .use(accessToken: tokens.accessToken)
        }
        // A JWT session signs in again with its JWT, so that an expired JWT
        // is noticed (A6); the others refresh while the refresh token lives.
        if let tokens, tokens.refreshExpiresAt > now, !credential.isJWT {
            return .refresh(refreshToken: tokens.refreshToken)
        }
        switch credential {
        case .provider:
            guard let userId else { return .fail(ChatError.signInFirst()) }
            return .askProvider(userId: userId)
        case .jwt(let jwt): return .signIn(.loginJWT(jwt: jwt))
        case .anonymous: return .signIn(.loginAnonymous)
        case .userId: return .signIn(.connectUserId(userId: userId ?? ""))
        case .accessToken(let token): return .signIn(.connectAccessToken(userId: userId ?? "", accessToken: token))
        case .sessionToken(let token): return .signIn(.connectSessionToken(userId: userId ?? "", sessionToken: token))
        case .authorized(let auth):
            let user = userId ?? ""
            guard let token = auth.token else { return .signIn(.connectUserId(userId: user, signature: auth.signature)) }
            return auth.tokenKind == .session
                ? .signIn(.connectSessionToken(userId: user, sessionToken: token, signature: auth.signature))
                : .signIn(.connectAccessToken(userId: user, accessToken: token, signature: auth.signature))
        }
    }

    /// Applies an event; returns the new state when it changed.
    @discardableResult
    mutating func handle(_ event: Event) -> SessionState? {
        let before = state
        switch event {
        case .identify(let user, let credential):
            userId = user
            self.credential = credential
            tokens = nil
            state = user.map { .userSet(userId: $0) } ?? .signedOut
        case .authenticating:
            state = .authenticating(userId: userId ?? "anonymous")
        case .refreshing:
            state = .refreshing(userId: userId ?? "anonymous")
        case .signedIn(let user, let pair):
            userId = user
            tokens = pair
            refreshDidNotExtend = false
            state = .authenticated(userId: user, via: credential?.method ?? .tokens)
        case .refreshed(let pair):
            refreshDidNotExtend = pair.accessExpiresAt <= (tokens?.accessExpiresAt ?? Instant(milliseconds: 0))
            tokens = pair
            if let userId { state = .authenticated(userId: userId, via: credential?.method ?? .tokens) }
        case .refreshRefused:
            tokens = nil
        case .refreshAborted:
            if let userId, tokens != nil, case .refreshing = state {
                state = .authenticated(userId: userId, via: credential?.method ?? .tokens)
            }
        case .signInAborted:
            if case .authenticating = state, let userId {
                state = tokens != nil ? .authenticated(userId: userId, via: credential?.method ?? .tokens) : .userSet(userId: userId)
            }
        case .accessTokenExpired(let token):
            if tokens?.accessToken == token { tokens?.accessExpiresAt = Instant(milliseconds: 0) }
        case .credentialRenewed(let credential):
            self.credential = credential
            tokens = nil
            refreshDidNotExtend = false
        case .needsCredentials(let reason):
            state = .needsCredentials(userId: userId ?? "anonymous", reason: reason)
        case .closed(let reason):
            tokens = nil
            state = .closed(reason: reason)
        case .cleared:
            userId = nil
            credential = nil
            tokens = nil
            state = .signedOut
        }
        return state == before ? nil : state
    }

    /// Records a refresh at `now`; true when there were too many in the
    /// last minute (a loop the SDK must break, A2).
    mutating func noteRefresh(at now: Instant, limit: Int = 5) -> Bool {
        recentRefreshes = recentRefreshes.filter { now - $0 < .seconds(60) } + [now]
        return recentRefreshes.count > limit
    }

    /// Whether `identify` with this user and credential is allowed now (A3):
    /// nil when it is, the no-op flag when it changes nothing.
    func admits(userId user: String?, credential: Credential) -> Admission {
        guard let current = userId ?? (self.credential == .anonymous ? "anonymous" : nil) else { return .allowed }
        // After a closed session, the same user again starts it again.
        if case .closed = state, user == current { return .allowed }
        if let user, user == current, self.credential?.method == credential.method { return .noChange }
        // An anonymous user may log in as someone: the server merges (A8).
        if self.credential == .anonymous || state.isAnonymousSession { return .allowed }
        if case .authorized = credential, case .authorized? = self.credential { return .reconfigure(previous: current) }
        return .refused(
            ChatError(
                .currentUserAlreadySet, "User \(current) is already set: call clearCurrentUser() before setting \(user ?? "another user")"))
    }

    enum Admission: Sendable, Hashable {
        case allowed
        case noChange
        /// Authorizing another user without logging out: allowed, with a warning (A12).
        case reconfigure(previous: String)
        case refused(ChatError)
    }
}

extension Credential {
    var isJWT: Bool { if case .jwt = self { true } else { false } }
}

extension SessionState {
    var isAnonymousSession: Bool {
        if case .authenticated(_, .anonymous) = self { true } else { false }
    }
}
