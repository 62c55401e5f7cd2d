internal import ChatCore

/// The session's decisions, without I/O (A1–A15): given what the client
/// holds, what to do to get a usable access token, and how each outcome
/// changes the state.
///
/// The client's actor gives it its inputs (a user set or cleared, a token
/// needed, an answer from the server, the provider or a delegate, the
/// proactive-refresh timer) and performs the actions it returns
/// (`SessionMachine+Inputs.swift`). Every attempt it asks for carries an id,
/// and so do the app's calls in flight and the refresh timer: an answer
/// whose id is no longer pending (the user was cleared or set again
/// meanwhile) changes nothing.
struct SessionMachine: Sendable, Equatable {
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
    /// The `SessionDelegate` renewed the session token: the next sign-in
    /// or refresh says so (`sessionWasRefreshed`, A10).
    private(set) var renewedSession = false
    /// Whether the app gave a `SessionTokenProvider` (A1).
    let hasProvider: Bool

    /// The authentications under way, by id.
    private(set) var runs: [Int: Run] = [:]
    /// The app's calls in flight for the current user: a clear or a new
    /// user ends them all, and each learns it by its id.
    private(set) var calls: Set<Int> = []
    /// The proactive refresh timers of this session, by id: one a refresh
    /// replaced is cancelled, but may have fired already.
    private(set) var refreshTimers: Set<Int> = []
    private var lastID = 0

    init(hasProvider: Bool = true) {
        self.hasProvider = hasProvider
    }

    /// What to do next to have a usable access token.
    enum Step: Sendable, Hashable {
        case use(accessToken: String)
        case refresh(refreshToken: String)
        /// A sign-in request (JWT, anonymous, connect…).
        case signIn(WireRequest)
        case askProvider(userId: String)
        case fail(ChatError)
    }

    /// A transition of the session (what an input or an answer does to it).
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

    /// Applies a transition; returns the new state when it changed. The
    /// inputs use it; tests use it to put the machine in a state.
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
            // Tokens that end with their JWT (the server caps them at its
            // `exp`, A6) are used to the end: signing in again with the same
            // JWT would give nothing longer. At their end the JWT has
            // expired, and the delegate is asked for a new one.
            refreshDidNotExtend = credential?.jwtExpiry.map { pair.accessExpiresAt >= $0 } ?? false
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

    // MARK: Bookkeeping: runs, attempts, calls and the timer by id

    /// An authentication starts: its id, for `nextRound`.
    mutating func startRun(_ purpose: Run.Purpose) -> Int {
        let id = nextID()
        let rounds = if case .token = purpose { 4 } else { 3 }
        runs[id] = Run(purpose: purpose, roundsLeft: rounds)
        return id
    }

    /// The run, taking one of its rounds; nil when it is over or forgotten.
    mutating func takeRound(_ id: Int) -> Run? {
        guard let run = runs[id] else { return nil }
        runs[id]?.roundsLeft -= 1
        return run
    }

    /// The run waits for a new attempt.
    mutating func attempt(_ kind: Attempt.Kind, for run: Int) -> Action {
        let attempt = Attempt(id: nextID(), kind: kind)
        runs[run]?.attempt = attempt
        return .perform(attempt)
    }

    /// The run and attempt an answer is for; nil when no run waits for it
    /// (the answer is late).
    mutating func takeAttempt(_ id: Int) -> (run: Int, kind: Attempt.Kind)? {
        guard let (run, entry) = runs.first(where: { $0.value.attempt?.id == id }), let attempt = entry.attempt else { return nil }
        runs[run]?.attempt = nil
        return (run, attempt.kind)
    }

    /// The run ends with `action` (`succeed` or `fail`), or is abandoned
    /// (its driver stopped): its late answers change nothing.
    @discardableResult
    mutating func finish(_ run: Int, _ action: Action? = nil) -> [Action] {
        runs[run] = nil
        return action.map { [$0] } ?? []
    }

    /// An app call that needs the session starts: its id, to ask later
    /// whether it still counts (`isOpen`).
    mutating func openCall() -> Int {
        let id = nextID()
        calls.insert(id)
        return id
    }

    mutating func closeCall(_ id: Int) {
        calls.remove(id)
    }

    /// Whether the call still counts: false once the user was cleared or
    /// set again while it was in flight.
    func isOpen(_ call: Int) -> Bool {
        calls.contains(call)
    }

    /// Whether the call or authentication attempt `id` still counts: false
    /// once the user was cleared or set again while it was in flight (what
    /// it brings back is late, and none of the current user's).
    func counts(_ id: Int) -> Bool {
        calls.contains(id) || runs.values.contains { $0.attempt?.id == id }
    }

    /// A new proactive refresh timer.
    mutating func startRefreshTimer() -> Int {
        let id = nextID()
        refreshTimers.insert(id)
        return id
    }

    /// Whether timer `id` is of this session, forgetting it.
    mutating func takeRefreshTimer(_ id: Int) -> Bool {
        refreshTimers.remove(id) != nil
    }

    mutating func stopRefreshTimers() {
        refreshTimers = []
    }

    /// Whether a renewal is still to be told, forgetting it.
    mutating func takeRenewal() -> Bool {
        defer { renewedSession = false }
        return renewedSession
    }

    mutating func noteRenewal() {
        renewedSession = true
    }

    /// Nothing under way counts any more: authentications, calls, the timer.
    mutating func forgetPending() {
        runs = [:]
        calls = []
        refreshTimers = []
    }

    private mutating func nextID() -> Int {
        lastID += 1
        return lastID
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
