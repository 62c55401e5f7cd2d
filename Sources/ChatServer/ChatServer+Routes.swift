import ChatBackend
import ChatCore
import Foundation
import HTTPTypes
import Hummingbird

extension ChatServer {
    /// Every HTTP route, as `(method, path)` with `{name}` captures: what
    /// the router serves and `docs/openapi.json` documents.
    public static let routes: [(method: String, path: String)] = [
        ("GET", "/health"),
        ("POST", "/v1/identity"),
        ("POST", "/v1/auth/refresh"),
        ("GET", "/v1/conversations"),
        ("GET", "/v1/conversations/{id}"),
        ("GET", "/v1/conversations/{id}/messages"),
        ("POST", "/v1/conversations/{id}/messages"),
        ("GET", "/v1/conversations/{id}/messages/since/{seq}"),
        ("POST", "/v1/conversations/{id}/typing"),
        ("GET", "/v1/events"),
        ("POST", "/v1/app/tokens"),
        ("POST", "/v1/app/connections/drop"),
        ("GET", "/v1/app/users"),
        ("GET", "/v1/app/users/{id}/conversations"),
        ("GET", "/v1/app/users/{id}/sessions"),
        ("GET", "/v1/app/users/{id}/devices"),
        ("GET", "/v1/app/users/{id}/pushes"),
        ("POST", "/v1/app/users/{id}/tokens/expire"),
        ("POST", "/v1/app/users/{id}/tokens/revoke"),
        ("GET", "/v1/app/conversations/{id}/messages"),
        ("GET", "/v1/app/settings"),
        ("POST", "/v1/app/settings"),
        ("POST", "/v1/app/access-tokens"),
        ("POST", "/v1/app/session-tokens"),
        ("POST", "/v1/agent/conversations/{id}/say"),
        ("POST", "/v1/agent/conversations/{id}/typing"),
        ("POST", "/v1/agent/conversations/{id}/read"),
    ]

    /// The HTTP routes (the WebSocket upgrade of `/v1/events` has its own router).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        var methods: [RouteTemplate: [String]] = [:]
        for route in Self.routes { methods[RouteTemplate(path: route.path), default: []].append(route.method) }
        router.add(middleware: RequestLogMiddleware())
        if let log = configuration.exchangeLog { router.add(middleware: ExchangeLogMiddleware(log: log)) }
        router.add(middleware: ErrorMiddleware(methodsByPath: methods))
        let backend = self.backend

        router.get("/health") { _, _ in
            JSONBody.response(HTTPWire.HealthBody(status: "ok"))
        }

        // MARK: SDK requests

        router.post(RouterPath(HTTPWire.identityPath)) { request, _ in
            guard let wire = try await JSONBody.decode(WireRequest.self, from: request, oneKey: [[]]), HTTPWire.isIdentity(wire) else {
                throw WireError(.badRequest, "The body must be an identity request (loginJWT, loginAnonymous, connect…, logout, …)")
            }
            return JSONBody.response(try await Self.perform(backend, request, wire))
        }
        router.post("/v1/auth/refresh") { request, _ in
            let body = try await JSONBody.decode(HTTPWire.RefreshBody.self, from: request)!
            guard case .tokens(let pair) = try await Self.perform(backend, request, .refresh(refreshToken: body.refreshToken)) else {
                throw WireError(.internalError)
            }
            return JSONBody.response(pair)
        }
        router.get("/v1/conversations") { request, _ in
            let wire = WireRequest.listConversations(cursor: Self.query(request, "cursor"), limit: try Self.limit(request))
            guard case .conversations(let page) = try await Self.perform(backend, request, wire) else { throw WireError(.internalError) }
            return JSONBody.response(page)
        }
        router.get("/v1/conversations/{id}") { request, context in
            let wire = WireRequest.getConversation(id: try Self.parameter(context, "id"))
            guard case .conversation(let conversation) = try await Self.perform(backend, request, wire) else {
                throw WireError(.internalError)
            }
            return JSONBody.response(conversation)
        }
        router.get("/v1/conversations/{id}/messages") { request, context in
            let wire = WireRequest.listMessages(
                conversationId: try Self.parameter(context, "id"),
                cursor: Self.query(request, "cursor"), limit: try Self.limit(request))
            guard case .messages(let page) = try await Self.perform(backend, request, wire) else { throw WireError(.internalError) }
            return JSONBody.response(page)
        }
        router.get("/v1/conversations/{id}/messages/since/{seq}") { request, context in
            let raw = try Self.parameter(context, "seq")
            guard var seq = Int64(raw), seq >= 0 else {
                throw WireError(.badRequest, "The sequence number must be a non-negative integer, got \"\(raw)\"")
            }
            // The previous page's nextCursor takes the place of the seq.
            if let cursor = Self.query(request, "cursor") { seq = try Backend.sinceSeq(fromCursor: cursor) }
            let wire = WireRequest.messagesSince(
                conversationId: try Self.parameter(context, "id"), afterSeq: seq,
                limit: try Self.limit(request))
            guard case .messages(let page) = try await Self.perform(backend, request, wire) else { throw WireError(.internalError) }
            return JSONBody.response(page)
        }
        router.post("/v1/conversations/{id}/messages") { request, context in
            let id = try Self.parameter(context, "id")
            let body = try await JSONBody.decode(HTTPWire.SendMessageBody.self, from: request, oneKey: [["message", "content"]])!
            let wire = WireRequest.sendMessage(conversationId: id, createConversation: body.createConversation, message: body.message)
            guard case .sent(let conversation, let message) = try await Self.perform(backend, request, wire) else {
                throw WireError(.internalError)
            }
            return JSONBody.response(HTTPWire.SentBody(conversation: conversation, message: message), status: .ok)
        }
        router.post("/v1/conversations/{id}/typing") { request, context in
            let id = try Self.parameter(context, "id")
            let body = try await JSONBody.decode(HTTPWire.TypingBody.self, from: request)!
            _ = try await Self.perform(backend, request, .setTyping(conversationId: id, isTyping: body.isTyping))
            return JSONBody.noContent()
        }
        // Reached only when the request is not a WebSocket upgrade, or its
        // credentials were refused before the upgrade: says which.
        router.get("/v1/events") { request, _ -> Response in
            let credentials = try Self.realtimeCredentials(request)
            _ = try Self.afterUserSeq(request)
            switch backend.subscribe(
                apiKey: credentials.apiKey, accessToken: credentials.accessToken ?? "", afterUserSeq: nil, sink: { _ in })
            {
            case .failure(let error):
                throw error
            case .success(let id):
                backend.unsubscribe(id)
                throw WireError(.upgradeRequired, "GET /v1/events is a WebSocket: send an upgrade request")
            }
        }

        // MARK: The app's backend

        router.post("/v1/app/tokens") { request, _ in
            let apiKey = try Self.requireApp(backend, request)
            let body = try await JSONBody.decode(HTTPWire.IssueTokensBody.self, from: request)!
            return JSONBody.response(try await BackendThread.run { try backend.issueTokens(apiKey: apiKey, userId: body.userId) })
        }
        let hub = self.hub
        router.post("/v1/app/connections/drop") { request, _ in
            let apiKey = try Self.requireApp(backend, request)
            let dropped = hub.dropAll(apiKey: apiKey, userId: Self.query(request, "userId"), reason: "dropped by the server")
            return JSONBody.response(HTTPWire.DroppedBody(dropped: dropped))
        }
        addAppRoutes(to: router)

        // MARK: The other side (S2)

        router.post("/v1/agent/conversations/{id}/say") { request, context in
            let id = try Self.agentConversation(backend, request, context)
            let body = try await JSONBody.decode(HTTPWire.AgentSayBody.self, from: request)!
            let agentName = try Self.agentName(body.agentName)
            let message = try await BackendThread.run { try backend.agentSay(conversationId: id, text: body.text, agentName: agentName) }
            return JSONBody.response(message)
        }
        router.post("/v1/agent/conversations/{id}/typing") { request, context in
            let id = try Self.agentConversation(backend, request, context)
            let body = try await JSONBody.decode(HTTPWire.TypingBody.self, from: request)!
            let agentName = try Self.agentName(body.agentName)
            try await BackendThread.run { try backend.agentTyping(conversationId: id, isTyping: body.isTyping, agentName: agentName) }
            return JSONBody.noContent()
        }
        router.post("/v1/agent/conversations/{id}/read") { request, context in
            let id = try Self.agentConversation(backend, request, context)
            let body = try await JSONBody.decode(HTTPWire.AgentReadBody.self, from: request, optional: true)
            let agentName = try Self.agentName(body?.agentName)
            try await BackendThread.run { try backend.agentRead(conversationId: id, agentName: agentName) }
            return JSONBody.noContent()
        }
        return router
    }

    // MARK: Helpers

    struct Credentials {
        var apiKey: String
        var accessToken: String?
        var deviceId: String
    }

    /// The API key, access token and device of a user request.
    static func credentials(_ request: Request) throws -> Credentials {
        guard let apiKey = header(request, HTTPWire.Header.apiKey), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        return Credentials(apiKey: apiKey, accessToken: try bearerToken(request), deviceId: try deviceId(request))
    }

    /// The `X-Device-Id` header ("unknown" without one): an identifier of
    /// printable ASCII (a header's bytes are not reliably UTF-8).
    static func deviceId(_ request: Request) throws -> String {
        guard let deviceId = header(request, HTTPWire.Header.deviceId) else { return "unknown" }
        try Backend.validateIdentifier(deviceId, what: "\(HTTPWire.Header.deviceId) header")
        guard deviceId.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw WireError(.badRequest, "The \(HTTPWire.Header.deviceId) header must be printable ASCII")
        }
        return deviceId
    }

    /// As ``credentials(_:)``, also accepting `api_key` and `access_token`
    /// query parameters (WebSocket clients that cannot set headers).
    static func realtimeCredentials(_ request: Request) throws -> Credentials {
        guard let apiKey = header(request, HTTPWire.Header.apiKey) ?? query(request, HTTPWire.apiKeyQuery), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        guard let token = try bearerToken(request) ?? query(request, HTTPWire.accessTokenQuery), !token.isEmpty else {
            throw WireError(.invalidToken, "The request has no access token")
        }
        return Credentials(apiKey: apiKey, accessToken: token, deviceId: try deviceId(request))
    }

    /// The token of an `Authorization: Bearer …` header, nil without one.
    static func bearerToken(_ request: Request) throws -> String? {
        guard let authorization = header(request, HTTPWire.Header.authorization) else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw WireError(.invalidToken, "The Authorization header must be \"Bearer <access token>\"")
        }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    static func afterUserSeq(_ request: Request) throws -> Int64? {
        guard let raw = query(request, "after") else { return nil }
        guard let after = Int64(raw), after >= 0 else {
            throw WireError(.badRequest, "after must be a non-negative integer, got \"\(raw)\"")
        }
        return after
    }

    /// Answers one SDK request through the backend, on the backend's thread.
    static func perform(_ backend: Backend, _ request: Request, _ wire: WireRequest) async throws -> WireResponse {
        let credentials = try credentials(request)
        let envelope = WireEnvelope(
            apiKey: credentials.apiKey, accessToken: credentials.accessToken,
            deviceId: credentials.deviceId, request: wire)
        return try await BackendThread.run { backend.handle(envelope) }.get()
    }

    /// Checks the API key and the app secret; returns the API key.
    static func requireApp(_ backend: Backend, _ request: Request) throws -> String {
        guard let apiKey = header(request, HTTPWire.Header.apiKey), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        let secret = try backend.jwtSecret(apiKey: apiKey)
        guard let given = header(request, HTTPWire.Header.appSecret) else {
            throw WireError(.invalidAppSecret, "The request has no \(HTTPWire.Header.appSecret) header")
        }
        guard constantTimeEqual(given, secret) else {
            throw WireError(.invalidAppSecret, "The app secret is wrong")
        }
        return apiKey
    }

    /// The conversation of an agent route, which must belong to the app whose secret is given.
    static func agentConversation(_ backend: Backend, _ request: Request, _ context: BasicRequestContext) throws -> String {
        let app = backend.scope(apiKey: try requireApp(backend, request))
        let id = try parameter(context, "id")
        try app.requireConversation(id)
        return id
    }

    static func agentName(_ name: String?) throws -> String {
        guard let name else { return "agent" }
        guard !name.isEmpty, name.unicodeScalars.count <= 100,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw WireError(.badRequest, "agentName must be 1 to 100 printable characters")
        }
        return name
    }

    static func header(_ request: Request, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { request.headers[$0] }
    }

    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters.get(name)
    }

    static func limit(_ request: Request) throws -> Int {
        guard let raw = query(request, "limit") else { return HTTPWire.defaultLimit }
        guard let limit = Int(raw), limit >= 1 else {
            throw WireError(.badRequest, "limit must be a positive integer, got \"\(raw)\"")
        }
        return limit
    }

    /// A path parameter, percent-decoded.
    static func parameter(_ context: some RequestContext, _ name: String) throws -> String {
        guard let raw = context.parameters.get(name) else { throw WireError(.badRequest, "Missing path parameter \(name)") }
        guard let value = raw.removingPercentEncoding else { throw WireError(.badRequest, "The \(name) is not valid percent-encoding") }
        // Ids in paths (conversations, users) have the limits of every id.
        if name == "id" { try Backend.validateIdentifier(value, what: "id in the path") }
        return value
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
