/// An error as it crosses the wire: a stable machine code plus a human message.
///
/// Codes are the vocabulary scripts match on (`error.code` in the workbench).
public struct WireError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// Every code the backend and the server can answer with: the one place
    /// they are defined. `docs/openapi.json`'s `Error.code` enum lists the
    /// same, in the same order (`OpenAPITests` checks it).
    public enum Code: String, Codable, Sendable, Hashable, CaseIterable {
        case invalidApiKey
        case invalidToken
        case expiredToken
        case invalidRefreshToken
        case expiredRefreshToken
        case unknownUser
        case unknownConversation
        case forbidden
        case badRequest
        case attachmentTooLarge
        case unsupportedMediaType
        case internalError
        /// A JWT that is malformed, truncated, not HS256, badly signed,
        /// missing a required claim (`external_id`, `exp`) or issued in the future (A5).
        case invalidJWT
        /// A well-formed, correctly signed JWT whose `exp` is past (A6).
        case expiredJWT
        /// `connectUserId` while the app's settings do not allow user-id-only connects (A10).
        case userIdOnlyNotAllowed
        /// `connectUserId` while the app's settings require an access token (A10).
        case accessTokenRequired
        /// An app-issued access token that is unknown, revoked or of another user (A10).
        case invalidAccessToken
        /// An app-issued session token that is unknown, revoked or of another user (A10).
        case invalidSessionToken
        /// An app-issued session token past its lifetime, or a refresh of a
        /// session opened with one (A10): the app must supply a new one.
        case expiredSessionToken
        /// A call that needs a signed-in user made while nobody is (A9's `logout`).
        case userNotAuthorized
        /// An app-backend or agent route called without the app's secret
        /// (`X-App-Secret`), or with a wrong one (HTTP 401).
        case invalidAppSecret
        /// No route has this path (HTTP 404).
        case unknownRoute
        /// The path exists, not with this method (HTTP 405, with `Allow`).
        case methodNotAllowed
        /// The request body is larger than the server reads (HTTP 413).
        case requestTooLarge
        /// The request's header fields are larger than the server reads (HTTP 431).
        case headersTooLarge
        /// `GET /v1/events` without a WebSocket upgrade (HTTP 426).
        case upgradeRequired

        public var defaultMessage: String {
            switch self {
            case .invalidApiKey: "The API key is not known to the server"
            case .invalidToken: "The access token is not valid"
            case .expiredToken: "The access token has expired"
            case .invalidRefreshToken: "The refresh token is not valid"
            case .expiredRefreshToken: "The refresh token has expired"
            case .unknownUser: "No such user"
            case .unknownConversation: "No such conversation"
            case .forbidden: "Not allowed for this user"
            case .badRequest: "The request is malformed"
            case .attachmentTooLarge: "The attachment is larger than the server accepts"
            case .unsupportedMediaType: "The server does not accept this media type"
            case .internalError: "The server failed"
            case .invalidJWT: "The JWT is not valid"
            case .expiredJWT: "The JWT has expired"
            case .userIdOnlyNotAllowed: "This app does not allow connecting with a user id alone"
            case .accessTokenRequired: "This app requires an access token to connect"
            case .invalidAccessToken: "The access token is not valid for this user"
            case .invalidSessionToken: "The session token is not valid for this user"
            case .expiredSessionToken: "The session token has expired"
            case .userNotAuthorized: "No user is signed in"
            case .invalidAppSecret: "The app secret is missing or wrong"
            case .unknownRoute: "No such route"
            case .methodNotAllowed: "The route does not accept this method"
            case .requestTooLarge: "The request body is larger than the server reads"
            case .headersTooLarge: "The request's header fields are too large"
            case .upgradeRequired: "This route is a WebSocket: send an upgrade request"
            }
        }
    }
}
