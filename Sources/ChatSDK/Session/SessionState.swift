/// How the current user was identified.
public enum AuthenticationMethod: String, Sendable, Hashable {
    /// Tokens from the app's `SessionTokenProvider` (A1).
    case tokens
    case jwt
    case anonymous
    case userId
    case access
    case session
    case authorized
}

/// The client's session, with the reason for it (A15): one value that says
/// where sign-in stands.
public enum SessionState: Sendable, Hashable, CustomStringConvertible {
    /// No user.
    case signedOut
    /// A user is set; tokens will be asked for when first needed.
    case userSet(userId: String)
    case authenticating(userId: String)
    case authenticated(userId: String, via: AuthenticationMethod)
    case refreshing(userId: String)
    /// The SDK cannot go on without new credentials from the app.
    case needsCredentials(userId: String, reason: String)
    /// The session ended and will not come back by itself.
    case closed(reason: String)

    /// The user the state names; nil when signed out or closed (after
    /// `closed` the user stays set until cleared or logged out).
    public var userId: String? {
        switch self {
        case .signedOut, .closed: nil
        case .userSet(let user), .authenticating(let user), .authenticated(let user, _),
            .refreshing(let user), .needsCredentials(let user, _):
            user
        }
    }

    /// The state's name: `signedOut`, `userSet`, `authenticating`, …
    public var name: String {
        switch self {
        case .signedOut: "signedOut"
        case .userSet: "userSet"
        case .authenticating: "authenticating"
        case .authenticated: "authenticated"
        case .refreshing: "refreshing"
        case .needsCredentials: "needsCredentials"
        case .closed: "closed"
        }
    }

    public var description: String {
        switch self {
        case .signedOut: "signedOut"
        case .userSet(let user): "userSet(\(user))"
        case .authenticating(let user): "authenticating(\(user))"
        case .authenticated(let user, let via): "authenticated(\(user), via: \(via.rawValue))"
        case .refreshing(let user): "refreshing(\(user))"
        case .needsCredentials(let user, let reason): "needsCredentials(\(user), \(reason))"
        case .closed(let reason): "closed(\(reason))"
        }
    }
}

/// The realtime connection's state (A15), with why it is down.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Not wanted: nobody signed in, the app in the background, `disconnect()`.
    case disconnected
    case connecting
    case connected
    /// Wanted but down; the SDK comes back by itself when it can.
    case waitingForNetwork(DownReason)

    /// Why a wanted connection is down.
    public enum DownReason: Sendable, Hashable, CustomStringConvertible {
        /// The device has no network; the SDK reconnects when it returns.
        case offline
        /// The last attempt failed or the connection broke; the SDK tries
        /// again after a back-off (attempt 1 is the first retry).
        case backoff(attempt: Int)
        /// The server ended the connection (tokens revoked, logout
        /// elsewhere, users merged), saying why.
        case closedByServer(String)

        public var description: String {
            switch self {
            case .offline: "offline"
            case .backoff(let attempt): "backoff(attempt \(attempt))"
            case .closedByServer(let reason): "closedByServer(\(reason))"
            }
        }
    }

    /// `disconnected`, `connecting`, `connected` or `waitingForNetwork`.
    public var name: String {
        switch self {
        case .disconnected: "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .waitingForNetwork: "waitingForNetwork"
        }
    }

    /// The name, with the reason when down: `waitingForNetwork(offline)`.
    public var description: String {
        if case .waitingForNetwork(let reason) = self { return "waitingForNetwork(\(reason))" }
        return name
    }
}
