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
        /// The network's return, however long it takes.
        case network
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
