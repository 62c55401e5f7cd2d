import Foundation

/// The wire format of server mode (SPEC S3): how each ``WireRequest`` travels
/// as an HTTP request, the JSON bodies of the routes, and the header names.
///
/// Both sides use these definitions: the SDK's network transport builds its
/// requests with ``HTTPWire/route(for:)`` and the server decodes the same
/// bodies, so the two cannot drift apart. `docs/openapi.json` documents the
/// same routes for everyone else.
///
/// Values are the plain `Codable` encodings of the wire types (times are
/// ``Instant``s, i.e. `{"milliseconds": …}`; enums use Swift's synthesized
/// keyed form, e.g. `{"text": {"_0": "hello"}}`).
package enum HTTPWire {
    /// Header names.
    package enum Header {
        /// The app's API key; on every route but `/health`.
        package static let apiKey = "X-Api-Key"
        /// `Bearer <access token>` on user routes.
        package static let authorization = "Authorization"
        /// The device the request comes from (optional).
        package static let deviceId = "X-Device-Id"
        /// The app's secret, on the app-backend and agent routes (what the
        /// app's own backend and the workbench's "other side" hold).
        package static let appSecret = "X-App-Secret"
    }

    /// The query parameter that may carry the access token of the event
    /// stream, for WebSocket clients that cannot set headers.
    package static let accessTokenQuery = "access_token"
    /// The query parameter that may carry the API key of the event stream.
    package static let apiKeyQuery = "api_key"

    /// Limit of a page when the request gives none.
    package static let defaultLimit = 20

    // MARK: Bodies

    /// `POST /v1/auth/refresh`.
    package struct RefreshBody: Codable, Sendable, Hashable {
        package var refreshToken: String
        package init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    /// `POST /v1/conversations/{id}/messages`.
    package struct SendMessageBody: Codable, Sendable, Hashable {
        /// Set when the conversation may not exist yet (local-first, D4).
        package var createConversation: NewConversation?
        package var message: NewMessage
        package init(createConversation: NewConversation?, message: NewMessage) {
            self.createConversation = createConversation
            self.message = message
        }
    }

    /// The answer to `POST /v1/conversations/{id}/messages`.
    package struct SentBody: Codable, Sendable, Hashable {
        package var conversation: WireConversation
        package var message: WireMessage
        package init(conversation: WireConversation, message: WireMessage) {
            self.conversation = conversation
            self.message = message
        }
    }

    /// `POST /v1/conversations/{id}/typing` and `POST /v1/agent/conversations/{id}/typing`.
    package struct TypingBody: Codable, Sendable, Hashable {
        package var isTyping: Bool
        /// Agent routes only: who types (default "agent").
        package var agentName: String?
        package init(isTyping: Bool, agentName: String? = nil) {
            self.isTyping = isTyping
            self.agentName = agentName
        }
    }

    /// `POST /v1/app/tokens`: the app's backend asks tokens for a user.
    package struct IssueTokensBody: Codable, Sendable, Hashable {
        package var userId: String
        package init(userId: String) { self.userId = userId }
    }

    /// `POST /v1/agent/conversations/{id}/say`.
    package struct AgentSayBody: Codable, Sendable, Hashable {
        package var text: String
        package var agentName: String?
        package init(text: String, agentName: String? = nil) {
            self.text = text
            self.agentName = agentName
        }
    }

    /// `POST /v1/agent/conversations/{id}/read` (the body is optional).
    package struct AgentReadBody: Codable, Sendable, Hashable {
        package var agentName: String?
        package init(agentName: String? = nil) { self.agentName = agentName }
    }

    /// The answer to `POST /v1/app/connections/drop`.
    package struct DroppedBody: Codable, Sendable, Hashable {
        package var dropped: Int
        package init(dropped: Int) { self.dropped = dropped }
    }

    /// The first frame of the event stream, sent once the server has
    /// subscribed the connection: every event after it is delivered.
    package struct ReadyFrame: Codable, Sendable, Hashable {
        package var ready: Bool
        package init(ready: Bool = true) { self.ready = ready }
    }

    /// The answer to `GET /health`.
    package struct HealthBody: Codable, Sendable, Hashable {
        package var status: String
        package init(status: String) { self.status = status }
    }

    // MARK: Routes of SDK requests

    /// One SDK request as HTTP: method, path (percent-encoded), query items
    /// and JSON body.
    package struct Route: Sendable, Hashable {
        package var method: String
        package var path: String
        package var query: [String: String]
        package var body: Data?
    }

    /// The HTTP form of an SDK request. The answer's JSON is the payload of
    /// the matching ``WireResponse`` case (see ``decodeResponse(to:from:)``).
    ///
    /// `withBody: false` leaves the body out (nil), and its JSON unencoded:
    /// what a summary of the request (`POST /v1/…`) needs, on every step
    /// of a recording (issue 17).
    package static func route(for request: WireRequest, withBody: Bool = true) -> Route {
        func body(_ value: some Encodable) -> Data? {
            guard withBody else { return nil }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try? encoder.encode(value)
        }
        switch request {
        case .refresh(let refreshToken):
            return Route(method: "POST", path: "/v1/auth/refresh", query: [:], body: body(RefreshBody(refreshToken: refreshToken)))
        case .listConversations(let cursor, let limit):
            var query = ["limit": String(limit)]
            if let cursor { query["cursor"] = cursor }
            return Route(method: "GET", path: "/v1/conversations", query: query, body: nil)
        case .getConversation(let id):
            return Route(method: "GET", path: "/v1/conversations/\(segment(id))", query: [:], body: nil)
        case .listMessages(let conversationId, let cursor, let limit):
            var query = ["limit": String(limit)]
            if let cursor { query["cursor"] = cursor }
            return Route(method: "GET", path: "/v1/conversations/\(segment(conversationId))/messages", query: query, body: nil)
        case .messagesSince(let conversationId, let afterSeq, let limit):
            return Route(
                method: "GET", path: "/v1/conversations/\(segment(conversationId))/messages/since/\(afterSeq)",
                query: ["limit": String(limit)], body: nil)
        case .sendMessage(let conversationId, let createConversation, let message):
            return Route(
                method: "POST", path: "/v1/conversations/\(segment(conversationId))/messages", query: [:],
                body: body(SendMessageBody(createConversation: createConversation, message: message)))
        case .setTyping(let conversationId, let isTyping):
            return Route(
                method: "POST", path: "/v1/conversations/\(segment(conversationId))/typing", query: [:],
                body: body(TypingBody(isTyping: isTyping)))
        case .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken, .logout,
            .registerDevice, .unregisterDevice, .getCurrentUser, .updateUser, .uploadProfileImage:
            // Identity requests travel as themselves: the body is the
            // request's JSON, the answer the response's (A5–A14).
            return Route(method: "POST", path: identityPath, query: [:], body: body(request))
        case .uploadAttachment(_, let data):
            // The bytes themselves, with their type as Content-Type.
            return Route(method: "POST", path: attachmentsPath, query: [:], body: withBody ? data : nil)
        case .attachmentData(let id):
            return Route(method: "GET", path: "\(attachmentsPath)/\(segment(id))", query: [:], body: nil)
        case .appLimits:
            return Route(method: "GET", path: "/v1/limits", query: [:], body: nil)
        }
    }

    /// The one route of identity requests (sign-ins, logout, devices, profile).
    package static let identityPath = "/v1/identity"

    /// Where attachments' bytes are uploaded (`POST`, the bytes as the body)
    /// and read (`GET …/{id}`).
    package static let attachmentsPath = "/v1/attachments"

    /// Where uploaded bytes that became a profile image are read (A14): what
    /// the user's `profileURL` becomes.
    package static func profileImagePath(of attachmentId: String) -> String {
        "\(attachmentsPath)/\(attachmentId)"
    }

    /// The attachment id of a `profileURL` that ``profileImagePath(of:)``
    /// made; nil for any other URL (one the app set itself).
    package static func attachmentId(inProfileURL url: String) -> String? {
        let prefix = attachmentsPath + "/"
        guard url.hasPrefix(prefix) else { return nil }
        let id = String(url.dropFirst(prefix.count))
        return id.isEmpty || id.contains("/") ? nil : id
    }

    /// Whether `request` travels through ``identityPath``.
    package static func isIdentity(_ request: WireRequest) -> Bool {
        switch request {
        case .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken, .logout,
            .registerDevice, .unregisterDevice, .getCurrentUser, .updateUser, .uploadProfileImage:
            true
        default: false
        }
    }

    /// Decodes the JSON answer to `request` into a ``WireResponse``.
    package static func decodeResponse(to request: WireRequest, from data: Data) throws -> WireResponse {
        let decoder = JSONDecoder()
        switch request {
        case .refresh:
            return .tokens(try decoder.decode(TokenPair.self, from: data))
        case .listConversations:
            return .conversations(try decoder.decode(WirePage<WireConversation>.self, from: data))
        case .getConversation:
            return .conversation(try decoder.decode(WireConversation.self, from: data))
        case .listMessages, .messagesSince:
            return .messages(try decoder.decode(WirePage<WireMessage>.self, from: data))
        case .sendMessage:
            let sent = try decoder.decode(SentBody.self, from: data)
            return .sent(conversation: sent.conversation, message: sent.message)
        case .setTyping:
            return .ok
        case .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken, .logout,
            .registerDevice, .unregisterDevice, .getCurrentUser, .updateUser, .uploadProfileImage:
            return try decoder.decode(WireResponse.self, from: data)
        case .uploadAttachment:
            return .attachment(try decoder.decode(WireAttachment.self, from: data))
        case .attachmentData:
            // The body is the bytes; their type travels as Content-Type.
            return .attachmentData(mimeType: "application/octet-stream", data: data)
        case .appLimits:
            return .limits(try decoder.decode(WireAppLimits.self, from: data))
        }
    }

    /// A path segment, percent-encoded (ids are chosen by clients).
    package static func segment(_ value: String) -> String {
        // Nearly every id needs no escape: its bytes are checked, and it is
        // as it is (making the set and encoding was 52 k instructions of a
        // recorded `send`, issue 31).
        guard !value.utf8.allSatisfy(isUnreserved) else { return value }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// RFC 3986's unreserved characters: `A-Z a-z 0-9 - . _ ~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
