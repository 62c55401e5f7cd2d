import ChatCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ChatServer

/// The server's side of the code generated from docs/openapi.json: which
/// operations need the app's secret before anything is read, and what a
/// request the generated code could not read is answered.
@Suite struct GeneratedServerTests {
    /// The operations the middleware refuses without the app's secret are
    /// those whose security names the document's AppSecret scheme.
    @Test func theAppsOperationsAreThoseOfTheAppSecretScheme() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: OpenAPITests.documentPath))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var app: Set<String> = []
        for operation in paths.values.flatMap(\.values) {
            guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String else { continue }
            let security = operation["security"] as? [[String: Any]] ?? []
            if security.contains(where: { $0["AppSecret"] != nil }) { app.insert(id) }
        }
        #expect(OperationRequestMiddleware.appOperations == app)
    }

    /// The generated input percent-decodes header values; the server reads
    /// `X-Device-Id` as it came, as before, and answers without reading
    /// `Content-Type` or `Accept`.
    @Test func headersAreReadAsTheyCame() async throws {
        let server = try await TestServer.start()
        let tokens = try await server.app.issueTokens(userId: "alice")
        var headers = HTTPAPITests.bearer(tokens.accessToken)
        headers["X-Device-Id"] = "%J"
        let list = try await http("GET", server.baseURL + "/v1/conversations", headers: headers)
        headers["Content-Type"] = "text/plain"
        headers["Accept"] = "text/html"
        let typing = try await http(
            "POST", server.baseURL + "/v1/conversations/c1/messages", headers: headers,
            body: #"{"createConversation": {}, "message": {"id": "m1", "content": {"text": {"_0": "hi"}}}}"#)
        let sessions = try await server.app.sessions(userId: "alice")
        await server.stop()
        #expect(list.status == 200, "\(String(decoding: list.body, as: UTF8.self))")
        #expect(typing.status == 200, "\(String(decoding: typing.body, as: UTF8.self))")
        #expect(sessions.map(\.deviceId) == ["%J"])
    }

    func serverError(_ underlying: any Error, status: HTTPResponse.Status = .internalServerError) -> ServerError {
        ServerError(
            operationID: "x", request: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), requestBody: nil,
            requestMetadata: .init(), causeDescription: "cause", underlyingError: underlying, httpStatus: status,
            httpHeaderFields: [:], httpBody: nil)
    }

    @Test func whatTheGeneratedCodeThrowsIsAnsweredWithTheCodesStatus() {
        let refused = APIError(serverError(WireError(.forbidden, "no")))
        #expect(refused.status == .forbidden && refused.error == WireError(.forbidden, "no"))
        let undecodable = APIError(
            serverError(DecodingError.keyNotFound(APIHandlerCodingKey("message"), .init(codingPath: [], debugDescription: ""))))
        #expect(undecodable.status == .badRequest && undecodable.error.message == "Missing field message")
        #expect(APIError(serverError(URLError(.badURL), status: .unsupportedMediaType)).error.code == .unsupportedMediaType)
        #expect(APIError(serverError(URLError(.badURL), status: .badRequest)).error == WireError(.badRequest, "cause"))
        #expect(APIError(serverError(URLError(.badURL))).status == .internalServerError)
    }
}

struct APIHandlerCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
