package import ChatCore
import ChatSDK
import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an app's own backend (and the workbench's "other side") asks a
/// chatbench server, with the app's secret: tokens for a user, and the
/// agent's actions (SPEC S2). Not for apps: the secret must not ship in one.
///
/// Public: the credentials a backend issues (``issueTokens(userId:)``,
/// ``accessToken(forUserId:)``, ``sessionToken(forUserId:ttl:)``), expires
/// and revokes (``expireAccessTokens(userId:)``, ``revokeTokens(userId:)``),
/// and the agent's side (``agentSay(_:in:agentName:)``,
/// ``agentTyping(_:in:agentName:)``, ``agentRead(in:agentName:)``).
/// Inspection (users, sessions, devices, pushes, settings) stays inside the
/// package: its answers are the wire's types, which are not the SDK's API.
///
/// ```swift
/// let app = AppBackendClient(baseURL: url, apiKey: "demo-key", secret: "demo-secret-0123456789abcdef")
/// let client = ChatClient(configuration: config, tokenProvider: app.tokenProvider)
/// try await app.agentTyping(true, in: conversationId)
/// ```
public struct AppBackendClient: Sendable {
    public let apiKey: String
    let secret: String
    let transport: HTTPTransport

    /// A client of the server at `baseURL` (`http://host:port`) for the app
    /// `apiKey`, through `session` (by default the one transports share).
    public init(baseURL: String, apiKey: String, secret: String, session: URLSession? = nil) {
        self.apiKey = apiKey
        self.secret = secret
        self.transport = HTTPTransport(baseURL: baseURL, session: session ?? HTTPTransport.defaultSession)
    }

    /// Mints tokens for a user, creating the user if unknown (`POST /v1/app/tokens`).
    public func issueTokens(userId: String) async throws -> ChatTokens {
        ChatTokens(try await issueTokenPair(userId: userId))
    }

    /// The same tokens, as the wire carries them.
    package func issueTokenPair(userId: String) async throws -> TokenPair {
        try await call("issueTokens") { try await $0.issueTokens(body: .json(.init(userId: userId))).ok.body.json }
    }

    /// A `SessionTokenProvider` that asks this server for tokens.
    public var tokenProvider: any SessionTokenProvider { Provider(app: self) }

    /// The agent says `text` in a conversation (`POST
    /// /v1/agent/conversations/{id}/say`); returns the new message's id.
    /// The user's devices receive it through their event streams.
    @discardableResult
    public func agentSay(_ text: String, in conversationId: String, agentName: String? = nil) async throws -> String {
        try await agentSayMessage(text, in: conversationId, agentName: agentName).id
    }

    /// The agent says `text` in a conversation; returns the message as the wire carries it.
    @discardableResult
    package func agentSayMessage(_ text: String, in conversationId: String, agentName: String? = nil) async throws -> WireMessage {
        try await call("agentSay") {
            try await $0.agentSay(path: .init(id: conversationId), body: .json(.init(text: text, agentName: agentName))).ok.body.json
        }
    }

    /// The agent sends a file in a conversation: its bytes, with their type.
    package func agentSendAttachment(
        _ data: Data, kind: WireContent.AttachmentKind, mimeType: String, fileName: String?, in conversationId: String,
        agentName: String? = nil
    ) async throws -> WireMessage {
        var credentials = self.credentials
        credentials.contentType = mimeType
        return try await transport.call("agentSendAttachment", with: credentials) { client in
            let answer = try await client.agentSendAttachment(
                path: .init(id: conversationId),
                query: .init(kind: .init(rawValue: kind.rawValue) ?? .document, fileName: fileName, agentName: agentName),
                body: .any(HTTPBody(data))
            ).ok.body.json
            do {
                return try JSONBridge.convert(answer)
            } catch {
                throw TransportError(.failed, "The server's answer to agentSendAttachment could not be read: \(error)")
            }
        }
    }

    /// The agent starts or stops typing in a conversation.
    public func agentTyping(_ isTyping: Bool, in conversationId: String, agentName: String? = nil) async throws {
        try await call("agentTyping") {
            _ = try await $0.agentTyping(
                path: .init(id: conversationId), body: .json(.init(isTyping: isTyping, agentName: agentName))
            ).noContent
        }
    }

    /// The agent reads a conversation up to its newest message.
    public func agentRead(in conversationId: String, agentName: String? = nil) async throws {
        try await call("agentRead") {
            _ = try await $0.agentRead(path: .init(id: conversationId), body: .json(.init(agentName: agentName))).noContent
        }
    }

    /// Closes the app's event streams (all, or one user's); returns how many closed.
    @discardableResult
    public func dropConnections(userId: String? = nil) async throws -> Int {
        let dropped = try await call("dropConnections", as: HTTPWire.DroppedBody.self) {
            try await $0.dropConnections(query: .init(userId: userId)).ok.body.json
        }
        return dropped.dropped
    }

    struct Provider: SessionTokenProvider {
        let app: AppBackendClient
        func provideTokens(forUserId userId: String) async throws -> ChatTokens {
            try await app.issueTokens(userId: userId)
        }
    }

    /// Calls `operation` through the generated client with the app's
    /// credentials; returns its answer as ChatCore's type of the same JSON.
    func call<Answer: Encodable, Target: Decodable>(
        _ operation: String, as: Target.Type = Target.self, _ send: (Client) async throws -> Answer
    ) async throws -> Target {
        try await transport.call(operation, with: credentials) { client in
            let answer = try await send(client)
            do {
                return try JSONBridge.convert(answer)
            } catch {
                throw TransportError(.failed, "The server's answer to \(operation) could not be read: \(error)")
            }
        }
    }

    /// Calls an `operation` that answers nothing (204).
    func call(_ operation: String, _ send: (Client) async throws -> Void) async throws {
        try await transport.call(operation, with: credentials, send)
    }

    var credentials: CredentialsMiddleware { CredentialsMiddleware(apiKey: apiKey, appSecret: secret) }
}
