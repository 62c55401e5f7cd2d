import ChatAPI
import ChatBackend
import ChatCore
import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIHummingbird

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
        ("POST", "/v1/attachments"),
        ("GET", "/v1/attachments/{id}"),
        ("GET", "/v1/limits"),
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
        ("POST", "/v1/agent/conversations/{id}/attachments"),
        ("POST", "/v1/agent/conversations/{id}/typing"),
        ("POST", "/v1/agent/conversations/{id}/read"),
    ]

    /// The HTTP routes: docs/openapi.json's operations, served by the code
    /// generated from it (``APIHandler``, through swift-openapi-hummingbird);
    /// the WebSocket upgrade of `/v1/events` has its own router.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        var methods: [RouteTemplate: [String]] = [:]
        for route in Self.routes { methods[RouteTemplate(path: route.path), default: []].append(route.method) }
        router.add(middleware: RequestLogMiddleware())
        if let log = configuration.exchangeLog { router.add(middleware: ExchangeLogMiddleware(log: log)) }
        router.add(middleware: ErrorMiddleware(methodsByPath: methods))
        let handler = APIHandler(backend: backend, hub: hub)
        do {
            try handler.registerHandlers(
                on: router, configuration: APIHandler.configuration, middlewares: [OperationRequestMiddleware(backend: backend)])
        } catch {
            // Only a server URL that is not a URL throws; the default, "/", is one.
            preconditionFailure("The generated routes could not be registered: \(error)")
        }
        return router
    }

    // MARK: Helpers

    struct Credentials {
        var apiKey: String
        var accessToken: String?
        var deviceId: String
    }

    /// The `X-Device-Id` header ("unknown" without one): an identifier of
    /// printable ASCII (a header's bytes are not reliably UTF-8).
    static func deviceId(_ deviceId: String?) throws -> String {
        guard let deviceId else { return "unknown" }
        try Backend.validateIdentifier(deviceId, what: "\(HTTPWire.Header.deviceId) header")
        guard deviceId.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw WireError(.badRequest, "The \(HTTPWire.Header.deviceId) header must be printable ASCII")
        }
        return deviceId
    }

    /// The credentials of an event stream: the API key, access token and
    /// device, where the key and the token may also be the `api_key` and
    /// `access_token` query parameters (WebSocket clients that cannot set headers).
    static func realtimeCredentials(_ headers: HTTPFields, apiKey: String?, accessToken: String?) throws -> Credentials {
        guard let apiKey = header(headers, HTTPWire.Header.apiKey) ?? apiKey, !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        guard let token = try bearerToken(headers) ?? accessToken, !token.isEmpty else {
            throw WireError(.invalidToken, "The request has no access token")
        }
        return Credentials(apiKey: apiKey, accessToken: token, deviceId: try deviceId(header(headers, HTTPWire.Header.deviceId)))
    }

    /// ``realtimeCredentials(_:apiKey:accessToken:)`` of an upgrade request.
    static func realtimeCredentials(_ request: Request) throws -> Credentials {
        try realtimeCredentials(
            request.headers, apiKey: query(request, HTTPWire.apiKeyQuery), accessToken: query(request, HTTPWire.accessTokenQuery))
    }

    /// The token of an `Authorization: Bearer …` header, nil without one.
    static func bearerToken(_ headers: HTTPFields) throws -> String? {
        guard let authorization = header(headers, HTTPWire.Header.authorization) else { return nil }
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

    /// Checks the API key and the app secret; returns the API key.
    static func requireApp(_ backend: Backend, _ headers: HTTPFields) throws -> String {
        guard let apiKey = header(headers, HTTPWire.Header.apiKey), !apiKey.isEmpty else {
            throw WireError(.invalidApiKey, "The request has no \(HTTPWire.Header.apiKey) header")
        }
        let secret = try backend.jwtSecret(apiKey: apiKey)
        guard let given = header(headers, HTTPWire.Header.appSecret) else {
            throw WireError(.invalidAppSecret, "The request has no \(HTTPWire.Header.appSecret) header")
        }
        guard constantTimeEqual(given, secret) else {
            throw WireError(.invalidAppSecret, "The app secret is wrong")
        }
        return apiKey
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

    static func header(_ headers: HTTPFields, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }

    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters.get(name)
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
