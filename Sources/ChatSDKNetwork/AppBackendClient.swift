import AsyncHTTPClient
import ChatCore
import ChatSDK
import Foundation

/// What an app's own backend (and the workbench's "other side") asks a
/// chatbench server, with the app's secret: tokens for a user, and the
/// agent's actions (SPEC S2). Not for apps: the secret must not ship in one.
///
/// ```swift
/// let app = AppBackendClient(baseURL: url, apiKey: "demo-key", secret: "demo-secret-0123456789abcdef")
/// let client = ChatClient(configuration: config, tokenProvider: app.tokenProvider)
/// try await app.agentSay("Hello", in: conversationId)
/// ```
public struct AppBackendClient: Sendable {
    public let apiKey: String
    let secret: String
    let transport: HTTPTransport

    public init(baseURL: String, apiKey: String, secret: String, client: HTTPClient = HTTPTransport.defaultClient) {
        self.apiKey = apiKey
        self.secret = secret
        self.transport = HTTPTransport(baseURL: baseURL, client: client)
    }

    /// Mints tokens for a user, creating the user if unknown (`POST /v1/app/tokens`).
    public func issueTokens(userId: String) async throws -> TokenPair {
        try await post("/v1/app/tokens", HTTPWire.IssueTokensBody(userId: userId), as: TokenPair.self)
    }

    /// A `SessionTokenProvider` that asks this server for tokens.
    public var tokenProvider: any SessionTokenProvider { Provider(app: self) }

    /// The agent says `text` in a conversation; returns the message.
    @discardableResult
    public func agentSay(_ text: String, in conversationId: String, agentName: String? = nil) async throws -> WireMessage {
        try await post(
            "/v1/agent/conversations/\(HTTPWire.segment(conversationId))/say",
            HTTPWire.AgentSayBody(text: text, agentName: agentName), as: WireMessage.self)
    }

    /// The agent starts or stops typing in a conversation.
    public func agentTyping(_ isTyping: Bool, in conversationId: String, agentName: String? = nil) async throws {
        _ = try await post(
            "/v1/agent/conversations/\(HTTPWire.segment(conversationId))/typing",
            HTTPWire.TypingBody(isTyping: isTyping, agentName: agentName), as: Empty.self)
    }

    /// The agent reads a conversation up to its newest message.
    public func agentRead(in conversationId: String, agentName: String? = nil) async throws {
        _ = try await post(
            "/v1/agent/conversations/\(HTTPWire.segment(conversationId))/read",
            HTTPWire.AgentReadBody(agentName: agentName), as: Empty.self)
    }

    /// Closes the app's event streams (all, or one user's); returns how many closed.
    @discardableResult
    public func dropConnections(userId: String? = nil) async throws -> Int {
        let path = "/v1/app/connections/drop" + (userId.map { "?userId=\(HTTPWire.segment($0))" } ?? "")
        return try await post(path, Empty(), as: HTTPWire.DroppedBody.self).dropped
    }

    struct Empty: Codable {}

    struct Provider: SessionTokenProvider {
        let app: AppBackendClient
        func provideTokens(forUserId userId: String) async throws -> TokenPair {
            try await app.issueTokens(userId: userId)
        }
    }

    func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, as: Answer.Type) async throws -> Answer {
        var request = request(path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(try JSONEncoder().encode(body))
        return try await answer(to: request, path, as: Answer.self)
    }

    func get<Answer: Decodable>(_ path: String, as: Answer.Type) async throws -> Answer {
        var request = request(path)
        request.method = .GET
        return try await answer(to: request, path, as: Answer.self)
    }

    /// A request to `path` with the app's credentials.
    private func request(_ path: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: transport.baseURL + path)
        request.headers.add(name: HTTPWire.Header.apiKey, value: apiKey)
        request.headers.add(name: HTTPWire.Header.appSecret, value: secret)
        return request
    }

    /// Sends `request`: a 204 or empty answer is ``Empty``, an error answer
    /// the server's `WireError` (or a `TransportError` without one).
    private func answer<Answer: Decodable>(to request: HTTPClientRequest, _ path: String, as: Answer.Type) async throws -> Answer {
        let (status, data) = try await transport.execute(request)
        guard (200..<300).contains(status) else { throw HTTPTransport.error(status: status, body: data) }
        if status == 204 || data.isEmpty, let empty = Empty() as? Answer { return empty }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw TransportError(.failed, "The server's answer to \(path) could not be read: \(error)")
        }
    }
}
