internal import ChatCore
import ChatSDK
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds the credentials the document's security schemes name (the
/// generator does not make them parameters): `X-Api-Key`, `Authorization:
/// Bearer …` on user routes, `X-App-Secret` on the app's routes; and the
/// device's `X-Device-Id` as it is (the generated coder would
/// percent-encode it, and the server reads it as it comes); and the header
/// fields the app gave for its user (`ChatAuth.headers`, A12).
struct CredentialsMiddleware: ClientMiddleware {
    var apiKey: String
    var accessToken: String?
    var appSecret: String?
    var deviceId: String?
    var headers: [String: String] = [:]
    /// An upload's MIME type: the Content-Type of its bytes (the document
    /// accepts any, and the generated client would send `*/*`).
    var contentType: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        // The SDK checked the names (ChatAuth.problem); its own fields come after.
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { request.headerFields[name] = value }
        }
        request.headerFields[HTTPField.Name(HTTPWire.Header.apiKey)!] = apiKey
        if let accessToken { request.headerFields[.authorization] = "Bearer \(accessToken)" }
        if let appSecret { request.headerFields[HTTPField.Name(HTTPWire.Header.appSecret)!] = appSecret }
        if let deviceId { request.headerFields[HTTPField.Name(HTTPWire.Header.deviceId)!] = deviceId }
        if let contentType { request.headerFields[.contentType] = contentType }
        return try await next(request, body, baseURL)
    }
}

/// Turns every answer that is not a success into the server's `WireError`
/// (its JSON body `{code, message}`), or a `TransportError` when it has
/// none or is the server's unavailability (502, 503, 504, 429), before the generated client reads it: each operation then only
/// reads its success.
struct ErrorAnswerMiddleware: ClientMiddleware {
    /// Largest error body read.
    static let maxErrorBytes = 1 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        guard response.status.kind != .successful else { return (response, answer) }
        var data = Data()
        if let answer { data = (try? await Data(collecting: answer, upTo: Self.maxErrorBytes)) ?? Data() }
        throw HTTPTransport.error(status: response.status.code, retryAfter: response.headerFields[.retryAfter], body: data)
    }
}
