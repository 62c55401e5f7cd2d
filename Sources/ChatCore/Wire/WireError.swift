/// An error as it crosses the wire: a stable machine code plus a human message.
///
/// Codes are the vocabulary scripts match on (`error.code` in the workbench).
package struct WireError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
    }

    package var description: String { "\(code.rawValue): \(message)" }

    /// Every code the backend and the server can answer with: the one place
    /// they are defined. `docs/openapi.json`'s `Error.code` enum lists the
    /// same, in the same order (`OpenAPITests` checks it).
    ///
    /// A struct with static members, not an enum (GRDB's `ResultCode` is the
    /// model): a code added later does not break a caller's `switch`, and a
    /// code this build does not know still decodes (its `isKnown` is false).
    package struct Code: RawRepresentable, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        package let rawValue: String

        package init(rawValue: String) { self.rawValue = rawValue }

        package init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        package var description: String { rawValue }

        /// Whether this build defines the code (a newer server may send others).
        package var isKnown: Bool { Self.defaultMessages[rawValue] != nil }

        /// What a person reads when the server gave no message of its own.
        package var defaultMessage: String { Self.defaultMessages[rawValue] ?? "The server answered \(rawValue)" }

        package static let invalidApiKey = Code(rawValue: "invalidApiKey")
        package static let invalidToken = Code(rawValue: "invalidToken")
        package static let expiredToken = Code(rawValue: "expiredToken")
        package static let invalidRefreshToken = Code(rawValue: "invalidRefreshToken")
        package static let expiredRefreshToken = Code(rawValue: "expiredRefreshToken")
        package static let unknownUser = Code(rawValue: "unknownUser")
        package static let unknownConversation = Code(rawValue: "unknownConversation")
        /// A reply whose `replyTo` names no message of the conversation (HTTP 404).
        package static let unknownMessage = Code(rawValue: "unknownMessage")
        /// An attachment id that names no bytes the caller may read (HTTP 404):
        /// unknown and not-yours answer alike.
        package static let unknownAttachment = Code(rawValue: "unknownAttachment")
        package static let forbidden = Code(rawValue: "forbidden")
        package static let badRequest = Code(rawValue: "badRequest")
        package static let attachmentTooLarge = Code(rawValue: "attachmentTooLarge")
        package static let unsupportedMediaType = Code(rawValue: "unsupportedMediaType")
        package static let internalError = Code(rawValue: "internalError")
        /// A JWT that is malformed, truncated, not HS256, badly signed,
        /// missing a required claim (`external_id`, `exp`) or issued in the future (A5).
        package static let invalidJWT = Code(rawValue: "invalidJWT")
        /// A well-formed, correctly signed JWT whose `exp` is past (A6).
        package static let expiredJWT = Code(rawValue: "expiredJWT")
        /// `connectUserId` while the app's settings do not allow user-id-only connects (A10).
        package static let userIdOnlyNotAllowed = Code(rawValue: "userIdOnlyNotAllowed")
        /// `connectUserId` while the app's settings require an access token (A10).
        package static let accessTokenRequired = Code(rawValue: "accessTokenRequired")
        /// An app-issued access token that is unknown, revoked or of another user (A10).
        package static let invalidAccessToken = Code(rawValue: "invalidAccessToken")
        /// An app-issued session token that is unknown, revoked or of another user (A10).
        package static let invalidSessionToken = Code(rawValue: "invalidSessionToken")
        /// An app-issued session token past its lifetime, or a refresh of a
        /// session opened with one (A10): the app must supply a new one.
        package static let expiredSessionToken = Code(rawValue: "expiredSessionToken")
        /// A call that needs a signed-in user made while nobody is (A9's `logout`).
        package static let userNotAuthorized = Code(rawValue: "userNotAuthorized")
        /// An app-backend or agent route called without the app's secret
        /// (`X-App-Secret`), or with a wrong one (HTTP 401).
        package static let invalidAppSecret = Code(rawValue: "invalidAppSecret")
        /// A connect whose user signature is not the user's (A12).
        package static let invalidSignature = Code(rawValue: "invalidSignature")
        /// No route has this path (HTTP 404).
        package static let unknownRoute = Code(rawValue: "unknownRoute")
        /// The path exists, not with this method (HTTP 405, with `Allow`).
        package static let methodNotAllowed = Code(rawValue: "methodNotAllowed")
        /// The request body is larger than the server reads (HTTP 413).
        package static let requestTooLarge = Code(rawValue: "requestTooLarge")
        /// The request's header fields are larger than the server reads (HTTP 431).
        package static let headersTooLarge = Code(rawValue: "headersTooLarge")
        /// `GET /v1/events` without a WebSocket upgrade (HTTP 426).
        package static let upgradeRequired = Code(rawValue: "upgradeRequired")

        /// Every code, in the document's order, with its default message.
        private static let table: [(Code, String)] = [
            (.invalidApiKey, "The API key is not known to the server"),
            (.invalidToken, "The access token is not valid"),
            (.expiredToken, "The access token has expired"),
            (.invalidRefreshToken, "The refresh token is not valid"),
            (.expiredRefreshToken, "The refresh token has expired"),
            (.unknownUser, "No such user"),
            (.unknownConversation, "No such conversation"),
            (.unknownMessage, "No such message"),
            (.unknownAttachment, "No such attachment"),
            (.forbidden, "Not allowed for this user"),
            (.badRequest, "The request is malformed"),
            (.attachmentTooLarge, "The attachment is larger than the server accepts"),
            (.unsupportedMediaType, "The server does not accept this media type"),
            (.internalError, "The server failed"),
            (.invalidJWT, "The JWT is not valid"),
            (.expiredJWT, "The JWT has expired"),
            (.userIdOnlyNotAllowed, "This app does not allow connecting with a user id alone"),
            (.accessTokenRequired, "This app requires an access token to connect"),
            (.invalidAccessToken, "The access token is not valid for this user"),
            (.invalidSessionToken, "The session token is not valid for this user"),
            (.expiredSessionToken, "The session token has expired"),
            (.userNotAuthorized, "No user is signed in"),
            (.invalidAppSecret, "The app secret is missing or wrong"),
            (.invalidSignature, "The user signature is not this user's"),
            (.unknownRoute, "No such route"),
            (.methodNotAllowed, "The route does not accept this method"),
            (.requestTooLarge, "The request body is larger than the server reads"),
            (.headersTooLarge, "The request's header fields are too large"),
            (.upgradeRequired, "This route is a WebSocket: send an upgrade request"),
        ]

        package static let allCases: [Code] = table.map(\.0)
        private static let defaultMessages = Dictionary(uniqueKeysWithValues: table.map { ($0.0.rawValue, $0.1) })
    }
}
