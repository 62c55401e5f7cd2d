import ChatCore
import ChatSDK
import ChatTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ChatSDKNetwork

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
        let known = HTTPTransport.error(status: 401, retryAfter: nil, body: Data(#"{"code":"expiredJWT","message":"old"}"#.utf8))
        #expect((known as? WireError) == WireError(.expiredJWT, "old"))
        let future = HTTPTransport.error(status: 418, retryAfter: nil, body: Data(#"{"code":"teapot","message":"no"}"#.utf8))
        #expect((future as? WireError)?.code.isKnown == false)
    }

    @Test func anAnswerWithoutAnErrorBodyIsAFinalTransportFailure() {
        let error = HTTPTransport.error(status: 500, retryAfter: nil, body: Data("<html>oops</html>".utf8))
        #expect((error as? TransportError)?.kind == .failed)
        #expect((error as? TransportError)?.kind.isRetryable == false)
        #expect("\(error)" == "The server answered HTTP 500")
    }

    /// D7: 502, 503 and 504 are the server's unavailability and 429 its
    /// rate limit, whatever their body; all four are retryable, and 429
    /// keeps its `Retry-After` (seconds or an HTTP date).
    @Test(arguments: [502, 503, 504])
    func anUnavailableServerIsRetryable(status: Int) {
        let error = HTTPTransport.error(status: status, retryAfter: nil, body: Data(#"{"code":"internalError","message":"x"}"#.utf8))
        #expect((error as? TransportError)?.kind == .unavailable)
        #expect((error as? TransportError)?.kind.isRetryable == true)
        #expect("\(error)" == "The server answered HTTP \(status)")
    }

    @Test func aRateLimitKeepsItsRetryAfter() throws {
        let error = try #require(HTTPTransport.error(status: 429, retryAfter: "7", body: Data()) as? TransportError)
        #expect(error.kind == .rateLimited && error.retryAfter == .seconds(7))
        let now = Date(timeIntervalSince1970: 1_784_000_000)
        #expect(HTTPTransport.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .zero, "a date past is now")
        #expect(HTTPTransport.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: Date(timeIntervalSince1970: 784_111_767)) == .seconds(10))
        #expect(HTTPTransport.retryAfter("soon") == nil)
        let chat = ChatError(.rateLimited, "x")
        #expect(chat.code.isRetryable)
    }

    /// D7: the sockets' failures, one kind each; only an answer that came
    /// and could not be read is final.
    @Test func socketFailuresAreClassifiedOnce() {
        #expect(HTTPTransport.kind(of: URLError(.cannotConnectToHost), answered: false) == .refused)
        #expect(HTTPTransport.kind(of: URLError(.cannotFindHost), answered: false) == .refused)
        #expect(HTTPTransport.kind(of: URLError(.notConnectedToInternet), answered: false) == .refused)
        #expect(HTTPTransport.kind(of: URLError(.secureConnectionFailed), answered: false) == .refused)
        #expect(HTTPTransport.kind(of: URLError(.timedOut), answered: false) == .timeout)
        #expect(HTTPTransport.kind(of: URLError(.networkConnectionLost), answered: false) == .reset)
        #expect(HTTPTransport.kind(of: URLError(.badServerResponse), answered: false) == .reset, "an empty reply")
        #expect(HTTPTransport.kind(of: URLError(.unknown), answered: false) == .reset, "an answer cut short")
        #expect(HTTPTransport.kind(of: CocoaError(.coderReadCorrupt), answered: false) == .reset)
        #expect(HTTPTransport.kind(of: CocoaError(.coderReadCorrupt), answered: true) == .failed)
    }

    /// D7, issue 25: a token provider's own request to the app's backend
    /// (URLSession's error, or AppBackendClient's `TransportError`) is read
    /// as the transport reads its own; what names no loss is not the
    /// network's, and stays the provider's failure.
    @Test func aProvidersNetworkErrorsAreClassifiedAsTheTransportsOwn() {
        let transport = HTTPTransport(baseURL: "http://127.0.0.1:9")
        #expect(transport.networkFailure(of: URLError(.cannotConnectToHost))?.kind == .refused)
        #expect(transport.networkFailure(of: URLError(.notConnectedToInternet))?.kind == .refused)
        #expect(transport.networkFailure(of: URLError(.timedOut))?.kind == .timeout)
        #expect(transport.networkFailure(of: URLError(.networkConnectionLost))?.kind == .reset)
        #expect(transport.networkFailure(of: TransportError(.refused, "down"))?.kind == .refused)
        #expect(transport.networkFailure(of: TransportError(.unavailable, "503"))?.kind == .unavailable)
        #expect(transport.networkFailure(of: URLError(.badURL)) == nil)
        #expect(transport.networkFailure(of: URLError(.unknown)) == nil)
        #expect(transport.networkFailure(of: TransportError(.failed, "unreadable")) == nil)
        #expect(transport.networkFailure(of: CocoaError(.coderReadCorrupt)) == nil)
    }

    #if canImport(Glibc)
        /// The same kinds from real sockets: a server that closes without a
        /// word, one that resets, one that cuts its answer short, one that
        /// never answers (past the transport's deadline).
        @Test func realSocketFailuresAreRetryableKinds() async throws {
            let envelope = WireEnvelope(apiKey: "k", accessToken: nil, deviceId: "d", request: .listConversations(cursor: nil, limit: 1))
            for (behaviour, expected) in [("close", TransportError.Kind.reset), ("reset", .reset), ("cut", .reset), ("silent", .timeout)] {
                let server = try MisbehavingServer(behaviour)
                defer { server.stop() }
                let transport = HTTPTransport(baseURL: "http://127.0.0.1:\(server.port)", requestTimeout: .milliseconds(800))
                await #expect(throws: TransportError.self, "\(behaviour)") {
                    do {
                        _ = try await transport.perform(envelope)
                    } catch let error as TransportError {
                        #expect(error.kind == expected, "\(behaviour): \(error)")
                        throw error
                    }
                }
            }
        }
    #endif

    @Test func aServerThatCannotBeReachedIsRefusedAndRetryable() async {
        let envelope = WireEnvelope(apiKey: "k", accessToken: nil, deviceId: "d", request: .listConversations(cursor: nil, limit: 1))
        await #expect {
            _ = try await transport.perform(envelope)
        } throws: { error in
            (error as? TransportError)?.kind == .refused && "\(error)".hasPrefix("The request to http://127.0.0.1:9 failed")
                && "\(error)".contains("(URLError -1004)")
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
