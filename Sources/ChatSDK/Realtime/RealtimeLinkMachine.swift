internal import ChatCore

/// The realtime link's decisions (D8), without I/O: after each connection
/// that opens or ends, what the client shows, whether its watchers must
/// fetch everything again, and how long it waits before the next attempt;
/// and when the network goes or comes back (``networkChanged(reachable:saidByApp:)``),
/// what that means for the link and for what else waits for the network.
/// `ClientCore` performs what it decides (opens the connection, sleeps on
/// the runtime, emits); time and randomness come in as arguments.
struct RealtimeLinkMachine: Sendable, Equatable {
    /// Failed attempts since the last connection that opened.
    private(set) var attempt = 0
    /// Whether a connection has opened before (a later one is a reconnection).
    private(set) var connectedBefore = false
    /// Whether the network is there, as the client last heard (the
    /// transport's reachability, the app's word). It outlives the link's
    /// runs: the network does not come back because the link starts again.
    private(set) var reachable = true
    /// Whether the link waits before its next attempt (a back-off, or the
    /// network), from the end of a connection until it tries again.
    private(set) var waiting = false

    /// What to wait for before the next attempt.
    enum Wait: Sendable, Equatable {
        /// A back-off of this length: recovery, which `settle` runs.
        case backoff(Duration)
        /// The network's return, however long it takes: a wait of
        /// ``networkWait`` that only a change of network ends early.
        case network
    }

    /// How long one wait for the network lasts before the link looks again:
    /// a day, so that only the network's return (``NetworkAction/endWait``)
    /// ends it in practice.
    static let networkWait = Duration.seconds(86_400)

    /// What the link does after an attempt that failed with an error.
    enum AfterError: Sendable, Equatable {
        /// The session is gone (closed, never authenticated, the user
        /// cleared): the link stops.
        case stop
        /// The server found the token expired before we thought: a new one,
        /// and the opening again at once, as a request does (A2).
        case renewToken
        /// The server refused the token as invalid (revoked): the session
        /// ends with that reason, and the link stops (no loop of openings).
        case endSession(reason: String)
        /// Offline or failed: wait (``ended(closedByServer:)``,
        /// ``nextWait(fraction:)``) and try again.
        case wait
    }

    /// The one classification of what ended an attempt of the link.
    static func afterError(_ error: any Error) -> AfterError {
        switch error {
        case let error as ChatError where [.sessionClosed, .notAuthenticated, .userCleared].contains(error.code): .stop
        case let error as WireError where error.code == .expiredToken: .renewToken
        case let error as WireError where error.code == .invalidToken: .endSession(reason: "invalidToken")
        default: .wait
        }
    }

    /// After a wait: nil to try a connection (the wait is over), or
    /// `.network` to wait again while the network is gone (it went while
    /// backing off: a connection cannot open).
    mutating func waitEnded() -> Wait? {
        guard reachable else { return .network }
        waiting = false
        return nil
    }

    /// The link starts (a session signed in, the app came back to the
    /// foreground): its first connection is not a reconnection.
    mutating func start() {
        attempt = 0
        connectedBefore = false
        waiting = false
    }

    /// The link was closed (a clear, a new session, the background): it no
    /// longer waits.
    mutating func stopped() {
        waiting = false
    }

    /// A connection opened. With no catch-up cursor (no event seen yet)
    /// after an earlier connection, watchers cannot know what they missed:
    /// the answer is true, and every one fetches again; else only those
    /// that are not fresh do.
    mutating func opened(hadCursor: Bool) -> (refetchAll: Bool, state: ConnectionState) {
        attempt = 0
        waiting = false
        defer { connectedBefore = true }
        return (connectedBefore && !hadCursor, .connected)
    }

    /// A connection ended or could not open: what the client shows. The
    /// link now waits (``nextWait(fraction:)``).
    mutating func ended(closedByServer: String?) -> ConnectionState {
        waiting = true
        return .waitingForNetwork(!reachable ? .offline : closedByServer.map { .closedByServer($0) } ?? .backoff(attempt: attempt + 1))
    }

    /// Then what to wait for before the next attempt. `fraction` (jitter,
    /// in [0, 1)) is drawn only when a back-off is needed, so that an
    /// offline client does not use the runtime's randomness.
    mutating func nextWait(fraction: () -> Double) -> Wait {
        defer { attempt += 1 }
        return reachable ? .backoff(Self.backoff(attempt: attempt, fraction: fraction())) : .network
    }

    /// The wait before reconnection attempt `attempt` (from 0): 2^attempt
    /// seconds up to 30 s, scaled by 0.5 + fraction / 2 (half to all of it,
    /// so that clients cut off together do not all come back at once).
    static func backoff(attempt: Int, fraction: Double) -> Duration {
        let base = Double(min(30, 1 << min(attempt, 5))) * 1000
        return .milliseconds(Int64(base * (0.5 + min(max(fraction, 0), 1) / 2)))
    }

    // MARK: The network

    /// What news of the network leads to.
    enum NetworkAction: Sendable, Equatable {
        /// The network went: what waits for it (the outbox's heads) waits.
        case networkWent
        /// The network came back: what waited for it goes (queued logouts,
        /// the outbox's queues, watchers whose refresh failed).
        case networkReturned
        /// What backs off goes now (the app says the network is there).
        case resendNow
        /// Show this state of the connection.
        case show(ConnectionState)
        /// The wait under way ends: the link tries again now, or, the
        /// network gone, waits for it (``waitEnded()``).
        case endWait
    }

    /// The network went (`reachable` false) or is there, as the transport
    /// reports it, or as the app says (`saidByApp`, its
    /// `networkReachabilityChanged`): what the client does. News it knew
    /// leads to nothing, except the app saying the network is there: the
    /// server may be back, so what backs off goes now.
    mutating func networkChanged(reachable: Bool, saidByApp: Bool = false) -> [NetworkAction] {
        guard reachable != self.reachable else { return reachable && saidByApp ? [.resendNow, .endWait] : [] }
        self.reachable = reachable
        // Back: reconnect now rather than at the end of the back-off.
        guard !reachable else { return [.networkReturned, .endWait] }
        // Gone while waiting: now the link waits for the network; the
        // back-off ends, and the link waits for the network instead.
        return [.networkWent] + (waiting ? [.show(.waitingForNetwork(.offline)), .endWait] : [])
    }
}
