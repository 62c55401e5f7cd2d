import ChatCore
import ChatSDK
import ChatTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ChatSDKNetwork

/// The SDK's HTTP client without a server: how it builds URLs, reads the
/// server's errors, reports a server it cannot reach, and waits for the
/// event stream to open.
@Suite struct HTTPTransportTests {
    let transport = HTTPTransport(baseURL: "http://127.0.0.1:9")

    @Test func queryItemsAreSortedAndEncoded() {
        #expect(transport.url("/v1/conversations", query: [:]) == "http://127.0.0.1:9/v1/conversations")
        let url = transport.url("/v1/conversations/c1/messages", query: ["limit": "20", "cursor": "a b/c"])
        #expect(url.hasPrefix("http://127.0.0.1:9/v1/conversations/c1/messages?cursor="))
        #expect(url.hasSuffix("&limit=20"))
        #expect(!url.contains(" "))
    }

    @Test func theServersJSONErrorIsAWireErrorEvenOfAnUnknownCode() {
        let known = HTTPTransport.error(status: 401, body: Data(#"{"code":"expiredJWT","message":"old"}"#.utf8))
        #expect((known as? WireError) == WireError(.expiredJWT, "old"))
        let future = HTTPTransport.error(status: 429, body: Data(#"{"code":"tooManyRequests","message":"slow"}"#.utf8))
        #expect((future as? WireError)?.code.isKnown == false)
    }

    @Test func anAnswerWithoutAnErrorBodyIsATransportFailure() {
        let error = HTTPTransport.error(status: 502, body: Data("<html>bad gateway</html>".utf8))
        #expect((error as? TransportError)?.kind == .failed)
        #expect("\(error)" == "The server answered HTTP 502")
    }

    @Test func aServerThatCannotBeReachedIsATransportFailure() async {
        let envelope = WireEnvelope(apiKey: "k", accessToken: nil, deviceId: "d", request: .listConversations(cursor: nil, limit: 1))
        await #expect {
            _ = try await transport.perform(envelope)
        } throws: { error in
            (error as? TransportError)?.kind == .failed && "\(error)".hasPrefix("The request to http://127.0.0.1:9 failed")
        }
    }

    @Test func theOpenLatchResolvesOnceWhicheverComesFirst() async throws {
        let early = OpenLatch()
        early.succeed()
        early.fail(TransportError(.failed, "too late"))
        try await early.wait()

        let late = OpenLatch()
        let waiter = Task { try await late.wait() }
        late.fail(TransportError(.offline, "down"))
        late.succeed()
        await #expect(throws: TransportError.self) { try await waiter.value }
    }
}

/// The header fields of `ChatAuth.headers` (A12) on the HTTP requests.
@Suite struct CredentialsMiddlewareTests {
    @Test func theAppsHeaderFieldsGoWithTheSDKsOwn() async throws {
        let middleware = CredentialsMiddleware(
            apiKey: "k", accessToken: "at-1", deviceId: "d", headers: ["X-Gateway-Session": "gw-123", "Cookie": "sid=abc"])
        let sent = Locked<HTTPRequest?>(nil)
        _ = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/v1/conversations"), body: nil,
            baseURL: URL(string: "http://127.0.0.1")!, operationID: "listConversations"
        ) { request, body, _ in
            sent.value = request
            return (HTTPResponse(status: .ok), body)
        }
        let fields = try #require(sent.value).headerFields
        #expect(fields[HTTPField.Name("X-Gateway-Session")!] == "gw-123")
        #expect(fields[.cookie] == "sid=abc")
        #expect(fields[.authorization] == "Bearer at-1")
        #expect(fields[HTTPField.Name("X-Api-Key")!] == "k")
    }
}
