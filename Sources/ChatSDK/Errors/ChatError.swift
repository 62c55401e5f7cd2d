package import ChatCore

/// An error of the SDK. Match on `code`; `message` is for people.
///
/// ```swift
/// do { try await client.setCurrentUser(userId: "bob") }
/// catch ChatError.currentUserAlreadySet { … }
/// ```
public struct ChatError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let message: String
    /// How long the server asked to wait before trying again (HTTP 429's
    /// `Retry-After`), when it said; the outbox waits at least that long.
    public let retryAfter: Duration?

    public init(_ code: Code, _ message: String) {
        self.init(code, message, retryAfter: nil)
    }

    init(_ code: Code, _ message: String, retryAfter: Duration?) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A stable error code. The server's codes (`WireError.Code`) keep their names.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A user-scoped call was made before a user was signed in (C3).
        public static let notAuthenticated = Code(rawValue: "notAuthenticated")
        /// `setCurrentUser` with another user while one is set (A3).
        public static let currentUserAlreadySet = Code(rawValue: "currentUserAlreadySet")
        /// Logging out when nobody is signed in (A9).
        public static let userNotAuthorized = Code(rawValue: "userNotAuthorized")
        /// The user was cleared while the call or watcher was active (A4).
        public static let userCleared = Code(rawValue: "userCleared")
        /// The token provider threw (A1).
        public static let providerFailed = Code(rawValue: "providerFailed")
        /// The token provider returned tokens that are not tokens (A1).
        public static let malformedTokens = Code(rawValue: "malformedTokens")
        /// The token provider returned tokens that had already expired (A1).
        public static let expiredTokens = Code(rawValue: "expiredTokens")
        /// The token provider did not answer in time.
        public static let providerTimeout = Code(rawValue: "providerTimeout")
        /// The session was ended (an invalid token, a refused refresh).
        public static let sessionClosed = Code(rawValue: "sessionClosed")
        /// The device is offline. Retryable (D7).
        public static let offline = Code(rawValue: "offline")
        /// The request failed on the way: no connection (refused, no route,
        /// DNS, TLS), the connection reset, or no answer in time. Retryable (D7).
        public static let networkFailure = Code(rawValue: "networkFailure")
        /// The server or a proxy in front of it is unavailable for now (HTTP
        /// 502, 503, 504). Retryable (D7).
        public static let serverUnavailable = Code(rawValue: "serverUnavailable")
        /// The server asks to come back later (HTTP 429; `retryAfter` says
        /// when, if it did). Retryable (D7).
        public static let rateLimited = Code(rawValue: "rateLimited")
        /// The request could not be made, or the server's answer could not
        /// be read: sending it again as it is would not help. Final.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// No conversation with that id on this device.
        public static let unknownConversation = Code(rawValue: "unknownConversation")
        /// No message with that id on this device.
        public static let unknownMessage = Code(rawValue: "unknownMessage")
        /// No attachment bytes under this id that this user may read, or a
        /// message with no attachment (`data(for:)`).
        public static let unknownAttachment = Code(rawValue: "unknownAttachment")
        /// `retrySending` on a message that has not failed.
        public static let notRetryable = Code(rawValue: "notRetryable")
        /// The client was shut down (an app restart) while the call was active.
        public static let clientClosed = Code(rawValue: "clientClosed")
        /// The client was shut down (`shutdown()`): every later call fails; make a new client (C1).
        public static let clientShutDown = Code(rawValue: "clientShutDown")
        /// An argument the SDK refuses before any request.
        public static let invalidArgument = Code(rawValue: "invalidArgument")

        // The server's codes, under the same names (a test checks that every
        // wire code has one here).
        /// The server answered: the API key is not known to the server.
        public static let invalidApiKey = Code(rawValue: "invalidApiKey")
        /// The server answered: the access token is not valid.
        public static let invalidToken = Code(rawValue: "invalidToken")
        /// The server answered: the access token has expired.
        public static let expiredToken = Code(rawValue: "expiredToken")
        /// The server answered: the refresh token is not valid.
        public static let invalidRefreshToken = Code(rawValue: "invalidRefreshToken")
        /// The server answered: the refresh token has expired.
        public static let expiredRefreshToken = Code(rawValue: "expiredRefreshToken")
        /// The server answered: no such user.
        public static let unknownUser = Code(rawValue: "unknownUser")
        /// The server answered: not allowed for this user.
        public static let forbidden = Code(rawValue: "forbidden")
        /// The server answered: the request is malformed.
        public static let badRequest = Code(rawValue: "badRequest")
        /// The server answered: the attachment is larger than the server accepts.
        public static let attachmentTooLarge = Code(rawValue: "attachmentTooLarge")
        /// The server answered: the server does not accept this media type.
        public static let unsupportedMediaType = Code(rawValue: "unsupportedMediaType")
        /// The server answered: the server failed.
        public static let internalError = Code(rawValue: "internalError")
        /// The server answered: the JWT is not valid.
        public static let invalidJWT = Code(rawValue: "invalidJWT")
        /// The server answered: the JWT has expired.
        public static let expiredJWT = Code(rawValue: "expiredJWT")
        /// The server answered: this app does not allow connecting with a user id alone.
        public static let userIdOnlyNotAllowed = Code(rawValue: "userIdOnlyNotAllowed")
        /// The server answered: this app requires an access token to connect.
        public static let accessTokenRequired = Code(rawValue: "accessTokenRequired")
        /// The server answered: the access token is not valid for this user.
        public static let invalidAccessToken = Code(rawValue: "invalidAccessToken")
        /// The server answered: the session token is not valid for this user.
        public static let invalidSessionToken = Code(rawValue: "invalidSessionToken")
        /// The server answered: the session token has expired.
        public static let expiredSessionToken = Code(rawValue: "expiredSessionToken")
        /// The server answered: the app secret is missing or wrong.
        public static let invalidAppSecret = Code(rawValue: "invalidAppSecret")
        /// The server answered: the user signature of `ChatAuth` is not the user's (A12).
        public static let invalidSignature = Code(rawValue: "invalidSignature")
        /// The server answered: no such route.
        public static let unknownRoute = Code(rawValue: "unknownRoute")
        /// The server answered: the route does not accept this method.
        public static let methodNotAllowed = Code(rawValue: "methodNotAllowed")
        /// The server answered: the request body is larger than the server reads.
        public static let requestTooLarge = Code(rawValue: "requestTooLarge")
        /// The server answered: the request's header fields are too large.
        public static let headersTooLarge = Code(rawValue: "headersTooLarge")
        /// The server answered: this route is a WebSocket: send an upgrade request.
        public static let upgradeRequired = Code(rawValue: "upgradeRequired")

        package init(_ wire: WireError.Code) { rawValue = wire.rawValue }

        /// Whether a request that failed with this code may succeed if sent
        /// again as it is: the transport's failures (no network, lost on the
        /// way, the server unavailable or busy), as opposed to a refusal by
        /// the server. The one classification of transport failures, for
        /// both modes (D7).
        public var isRetryable: Bool {
            self == .offline || self == .networkFailure || self == .serverUnavailable || self == .rateLimited
        }

        /// `catch ChatError.expiredJWT { … }`: matches a ChatError of this code.
        public static func ~= (code: Code, error: any Error) -> Bool { (error as? ChatError)?.code == code }
    }

    init(_ wire: WireError) { self.init(Code(wire.code), wire.message) }

    /// A transport's failure, by its kind: the no-answer kinds are
    /// `networkFailure`, the server's unavailability and rate limit have
    /// codes of their own, and a request that could not be made or an
    /// answer that could not be read is `invalidResponse` (D7).
    init(_ transport: TransportError) {
        let code: Code =
            switch transport.kind {
            case .offline: .offline
            case .unavailable: .serverUnavailable
            case .rateLimited: .rateLimited
            case .failed: .invalidResponse
            default: .networkFailure
            }
        self.init(code, transport.message, retryAfter: transport.retryAfter)
    }

    static func signInFirst() -> ChatError {
        ChatError(.notAuthenticated, "No user is signed in: call setCurrentUser(userId:) first")
    }
}

/// Every code as a member of `ChatError` too, so that a `catch` reads as
/// the error it catches (`catch ChatError.offline`), as GRDB's
/// `DatabaseError.SQLITE_BUSY` does.
extension ChatError {
    public static let notAuthenticated = Code.notAuthenticated
    public static let currentUserAlreadySet = Code.currentUserAlreadySet
    public static let userNotAuthorized = Code.userNotAuthorized
    public static let userCleared = Code.userCleared
    public static let providerFailed = Code.providerFailed
    public static let malformedTokens = Code.malformedTokens
    public static let expiredTokens = Code.expiredTokens
    public static let providerTimeout = Code.providerTimeout
    public static let sessionClosed = Code.sessionClosed
    public static let offline = Code.offline
    public static let networkFailure = Code.networkFailure
    public static let serverUnavailable = Code.serverUnavailable
    public static let rateLimited = Code.rateLimited
    public static let invalidResponse = Code.invalidResponse
    public static let unknownConversation = Code.unknownConversation
    public static let unknownMessage = Code.unknownMessage
    public static let unknownAttachment = Code.unknownAttachment
    public static let notRetryable = Code.notRetryable
    public static let clientClosed = Code.clientClosed
    public static let clientShutDown = Code.clientShutDown
    public static let invalidArgument = Code.invalidArgument
    public static let invalidApiKey = Code.invalidApiKey
    public static let invalidToken = Code.invalidToken
    public static let expiredToken = Code.expiredToken
    public static let invalidRefreshToken = Code.invalidRefreshToken
    public static let expiredRefreshToken = Code.expiredRefreshToken
    public static let unknownUser = Code.unknownUser
    public static let forbidden = Code.forbidden
    public static let badRequest = Code.badRequest
    public static let attachmentTooLarge = Code.attachmentTooLarge
    public static let unsupportedMediaType = Code.unsupportedMediaType
    public static let internalError = Code.internalError
    public static let invalidJWT = Code.invalidJWT
    public static let expiredJWT = Code.expiredJWT
    public static let userIdOnlyNotAllowed = Code.userIdOnlyNotAllowed
    public static let accessTokenRequired = Code.accessTokenRequired
    public static let invalidAccessToken = Code.invalidAccessToken
    public static let invalidSessionToken = Code.invalidSessionToken
    public static let expiredSessionToken = Code.expiredSessionToken
    public static let invalidAppSecret = Code.invalidAppSecret
    public static let invalidSignature = Code.invalidSignature
    public static let unknownRoute = Code.unknownRoute
    public static let methodNotAllowed = Code.methodNotAllowed
    public static let requestTooLarge = Code.requestTooLarge
    public static let headersTooLarge = Code.headersTooLarge
    public static let upgradeRequired = Code.upgradeRequired
}
