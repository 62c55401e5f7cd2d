import ChatSDK

/// The session and connection state changes the SDK allows (invariant 4),
/// by state name, as its public event stream publishes them
/// (`sessionChanged`, `connectionChanged`). A new SDK client (an app
/// launch or `app restart`) starts `signedOut` and `disconnected`.
///
/// The tables follow `SessionMachine` and the realtime loop: a user is
/// set or forgotten by the app at any time; signing in goes through
/// `authenticating`, a refresh starts from a signed-in session; a closed
/// session does not come back by itself; the connection opens only through
/// `connecting`.
package enum StateTransitions {
    /// Session state → the states it may change to.
    package static let session: [String: Set<String>] = [
        "signedOut": ["userSet", "authenticating"],
        "userSet": ["signedOut", "userSet", "authenticating", "needsCredentials", "closed"],
        "authenticating": ["signedOut", "userSet", "authenticated", "needsCredentials", "closed"],
        "authenticated": ["signedOut", "userSet", "authenticating", "authenticated", "refreshing", "needsCredentials", "closed"],
        "refreshing": ["signedOut", "userSet", "authenticating", "authenticated", "needsCredentials", "closed"],
        "needsCredentials": ["signedOut", "userSet", "authenticating", "needsCredentials", "closed"],
        "closed": ["signedOut", "userSet"],
    ]

    /// Connection state → the states it may change to (a down connection
    /// may change its reason: back-off, then offline).
    package static let connection: [String: Set<String>] = [
        "disconnected": ["connecting"],
        "connecting": ["connected", "waitingForNetwork", "disconnected"],
        "connected": ["waitingForNetwork", "disconnected"],
        "waitingForNetwork": ["connecting", "waitingForNetwork", "disconnected"],
    ]

    /// `from → to`, or nil when the table allows it.
    static func check(_ table: [String: Set<String>], from: String, to: String, what: String) -> String? {
        table[from]?.contains(to) == true ? nil : "\(what) went \(from) → \(to)"
    }

    /// The disallowed changes among a client's published states, in order,
    /// starting from a new client's states.
    package static func violations(sessions: [SessionState], connections: [ConnectionState], client: String) -> [String] {
        var audit = StateAudit()
        for state in sessions { audit.saw(state, client: client) }
        for state in connections { audit.saw(state, client: client) }
        return audit.problems
    }
}

/// What one client's SDK published about its session and connection, and
/// each change the tables do not allow, as it happens.
struct StateAudit {
    private(set) var problems: [String] = []
    private var session = SessionState.signedOut
    private var connection = ConnectionState.disconnected

    mutating func saw(_ state: SessionState, client: String) {
        if let problem = StateTransitions.check(StateTransitions.session, from: session.name, to: state.name, what: "\(client).session") {
            problems.append("\(problem) (\(session) → \(state))")
        }
        session = state
    }

    mutating func saw(_ state: ConnectionState, client: String) {
        if let problem = StateTransitions.check(
            StateTransitions.connection, from: connection.name, to: state.name, what: "\(client).connection")
        {
            problems.append("\(problem) (\(connection) → \(state))")
        }
        connection = state
    }

    /// A new SDK client: it starts again from `signedOut`, `disconnected`.
    mutating func restarted() {
        session = .signedOut
        connection = .disconnected
    }
}
