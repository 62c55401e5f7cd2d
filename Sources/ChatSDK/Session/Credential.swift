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
    /// A user object, with how the app's backend proves it (A12).
    case authorized(ChatAuth)

    /// Header fields to send with each of the user's requests (A12).
    var headers: [String: String] {
        if case .authorized(let auth) = self { auth.headers } else { [:] }
    }

    /// The credential once the `SessionDelegate` renewed its session token:
    /// an authorized user stays authorized, with the new token.
    func renewed(sessionToken token: String) -> Credential {
        guard case .authorized(var auth) = self else { return .sessionToken(token) }
        auth.token = token
        return .authorized(auth)
    }

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
