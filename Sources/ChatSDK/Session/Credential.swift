internal import ChatCore
import Foundation

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

    /// When a JWT credential expires: its `exp` claim, read without
    /// checking the signature (the server checks it). Nil for the other
    /// credentials and for a JWT that cannot be read.
    var jwtExpiry: Instant? {
        guard case .jwt(let jwt) = self, let claims = Self.claims(ofJWT: jwt), let exp = claims["exp"] as? Double, exp.isFinite,
            abs(exp) < 1e12
        else { return nil }
        return Instant(milliseconds: Int64(exp * 1000))
    }

    /// The claims of a JWT's payload, unverified; nil when it is not one.
    static func claims(ofJWT jwt: String) -> [String: Any]? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
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
