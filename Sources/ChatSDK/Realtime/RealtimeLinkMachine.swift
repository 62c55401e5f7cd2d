internal import ChatCore

/// The realtime link's decisions (D8), without I/O: after each connection
/// that opens or ends, what the client shows, whether its watchers must
/// fetch everything again, and how long it waits before the next attempt.
/// `ClientCore` performs what it decides (opens the connection, sleeps on
/// the runtime, emits); time and randomness come in as arguments.
struct RealtimeLinkMachine: Sendable, Equatable {
    /// Failed attempts since the last connection that opened.
    private(set) var attempt = 0
    /// Whether a connection has opened before (a later one is a reconnection).
    private(set) var connectedBefore = false
    /// Whether the network was there when the last connection ended.
    private(set) var reachable = true

    /// What to wait for before the next attempt.
    enum Wait: Sendable, Equatable {
        /// A back-off of this length: recovery, which `settle` runs.
        case backoff(Duration)
        /// The network's return, however long it takes: a wait of
        /// ``networkWait`` that only a change of network ends early.
        case network
    }

    /// How long one wait for the network lasts before the link looks again:
    /// a day, so that only the network's return (`reachabilityChanged`)
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
        /// Offline or failed: wait (``ended(reachable:closedByServer:)``,
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

    /// After a wait: nil to try a connection, or `.network` to wait again
    /// while the network is gone (it went while backing off: a connection
    /// cannot open).
    func waitsAgain(reachable: Bool) -> Wait? {
        reachable ? nil : .network
    }

    /// A connection opened. With no catch-up cursor (no event seen yet)
    /// after an earlier connection, watchers cannot know what they missed:
    /// the answer is true, and every one fetches again; else only those
    /// that are not fresh do.
    mutating func opened(hadCursor: Bool) -> (refetchAll: Bool, state: ConnectionState) {
        attempt = 0
        defer { connectedBefore = true }
        return (connectedBefore && !hadCursor, .connected)
    }

    /// A connection ended or could not open: what the client shows.
    mutating func ended(reachable: Bool, closedByServer: String?) -> ConnectionState {
        self.reachable = reachable
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
}
