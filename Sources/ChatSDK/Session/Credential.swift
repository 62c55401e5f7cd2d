/// How the current user proves who they are. Every way the SDKs it is
/// modelled on document leads into the one session state (A15).
public enum Credential: Sendable, Hashable {
    /// Tokens from the app's `SessionTokenProvider` (A1).
    case provider
    /// A JWT signed by the app's backend (A5); signed in again with it
    /// whenever the session's tokens run out.
    case jwt(String)
    /// A user the server makes up (A7).
    case anonymous
    /// The user id alone, when the app's settings allow it (A10).
    case userId
    /// An app-issued access token: does not expire, can be revoked (A10).
    case accessToken(String)
    /// A session token that expires; the `SessionDelegate` renews it (A10).
    case sessionToken(String)
    /// A user object, with an optional access token (A12).
    case authorized(token: String?)

    /// The method a session opened with it shows.
    public var method: AuthenticationMethod {
        switch self {
        case .provider: .tokens
        case .jwt: .jwt
        case .anonymous: .anonymous
        case .userId: .userId
        case .accessToken: .access
        case .sessionToken: .session
        case .authorized: .authorized
        }
    }
}
