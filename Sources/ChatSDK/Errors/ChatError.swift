/// An error of the SDK. Match on `code`; `message` is for people.
///
/// ```swift
/// do { try await client.setCurrentUser(userId: "bob") }
/// catch let error as ChatError where error.code == .currentUserAlreadySet { … }
/// ```
public struct ChatError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
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
        /// The device is offline.
        public static let offline = Code(rawValue: "offline")
        /// The request failed on the way (connection reset, timeout).
        public static let networkFailure = Code(rawValue: "networkFailure")
        /// No conversation with that id on this device.
        public static let unknownConversation = Code(rawValue: "unknownConversation")
        /// No message with that id on this device.
        public static let unknownMessage = Code(rawValue: "unknownMessage")
        /// `retrySending` on a message that has not failed.
        public static let notRetryable = Code(rawValue: "notRetryable")
        /// The client was shut down (an app restart) while the call was active.
        public static let clientClosed = Code(rawValue: "clientClosed")
        /// An argument the SDK refuses before any request.
        public static let invalidArgument = Code(rawValue: "invalidArgument")

        public init(_ wire: WireError.Code) { rawValue = wire.rawValue }
    }

    init(_ wire: WireError) { self.init(Code(wire.code), wire.message) }

    static func notAuthenticated() -> ChatError {
        ChatError(.notAuthenticated, "No user is signed in: call setCurrentUser(userId:) first")
    }
}
