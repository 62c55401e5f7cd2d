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

/// The realtime connection's state (A15).
public enum ConnectionState: String, Sendable, Hashable {
    case disconnected
    case connecting
    case connected
    case waitingForNetwork
}
