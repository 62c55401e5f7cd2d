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

    /// Every code the backend can answer with.
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
            }
        }
    }
}
