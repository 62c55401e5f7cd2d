package import ChatCore
import ChatSDK
import Foundation
import HTTPTypes
import Logging
import WSClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's way to a chatbench server (`chatbench serve`): requests over
/// HTTP with URLSession, the event stream over a WebSocket.
///
/// The event stream is swift-websocket's client (SwiftNIO), not
/// `URLSessionWebSocketTask`: on Linux, FoundationNetworking's WebSocket
/// task needs a libcurl built with WebSockets, which Debian 12's 7.88 is
/// not ("WebSockets not supported by libcurl"), and one client on every
/// platform is one that the tests here run.
///
/// It knows the wire format (``HTTPWire``), not the server. Reconnection,
/// catch-up, token refresh and request replay are the SDK's, as with any
/// transport.
///
/// An app gets one as `ChatClient.Transport.http(baseURL:)`.
package struct HTTPTransport: ChatTransport {
    /// `http://host:port`, without a trailing slash.
    package let baseURL: String
    /// Longest wait for one request's answer. Default 30 s.
    package var requestTimeout: Duration
    /// How often the event stream is pinged. A ping not answered by the next
    /// one means the connection is dead even though nothing closed it (a
    /// NAT's timeout, a server gone without a word): the stream then closes,
    /// and the SDK reconnects and catches up as after any cut. Default 30 s.
    package var keepAlive: Duration
    let session: URLSession

    /// A transport to the server at `baseURL` (`http://host:port`), using
    /// ``defaultSession`` unless told otherwise.
    package init(
        baseURL: String, session: URLSession = HTTPTransport.defaultSession, requestTimeout: Duration = .seconds(30),
        keepAlive: Duration = .seconds(30)
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.session = session
        self.requestTimeout = requestTimeout
        self.keepAlive = keepAlive
    }

    /// The process-wide session transports share (never invalidated, like
    /// `URLSession.shared`). Unlike that one, it keeps no cookies, no cache
    /// and no credentials of its own, and it fails a request at once when
    /// the server cannot be reached (it does not wait for connectivity):
    /// the SDK has its own retry policy. Each request's deadline is the
    /// transport's `requestTimeout` (``DeadlineMiddleware``); the session's
    /// own timeouts are only a backstop above it.
    package static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 600
        return URLSession(configuration: configuration)
    }()

    // MARK: Requests

    package func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        var credentials = CredentialsMiddleware(
            apiKey: envelope.apiKey, accessToken: envelope.accessToken, deviceId: envelope.deviceId, headers: envelope.headers)
        if case .uploadAttachment(let mimeType, _) = envelope.request { credentials.contentType = mimeType }
        return try await call(envelope.request.name, with: credentials) { client in
            try await Self.send(envelope.request, through: client)
        }
    }

    func url(_ path: String, query: [String: String]) -> String {
        guard !query.isEmpty else { return baseURL + path }
        let items = query.keys.sorted().map { "\($0)=\(HTTPWire.segment(query[$0]!))" }
        return baseURL + path + "?" + items.joined(separator: "&")
    }

    // MARK: Event stream

    package func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        var query: [String: String] = [:]
        if let after = request.afterUserSeq { query["after"] = String(after) }
        let httpURL = url("/v1/events", query: query)
        let wsURL = "ws" + httpURL.dropFirst(4) // http… → ws…, https… → wss…
        var headers = HTTPFields()
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        headers[HTTPField.Name(HTTPWire.Header.apiKey)!] = request.apiKey
        headers[HTTPField.Name(HTTPWire.Header.authorization)!] = "Bearer \(request.accessToken)"
        headers[HTTPField.Name(HTTPWire.Header.deviceId)!] = request.deviceId

        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let opened = OpenLatch()
        var logger = Logger(label: "chatbench.events")
        logger.logLevel = .critical
        let keepAlive = self.keepAlive
        let task = Task {
            var reason = "closed by the server"
            var by = ClosedBy.server
            do {
                let close = try await WebSocketClient.connect(
                    url: wsURL,
                    configuration: .init(
                        maxFrameSize: 1 << 22, additionalHeaders: headers, closeTimeout: .seconds(2),
                        autoPing: .enabled(timePeriod: keepAlive)),
                    logger: logger
                ) { inbound, _, _ in
                    let decoder = JSONDecoder()
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message else { continue }
                        let data = Data(text.utf8)
                        if let event = try? decoder.decode(WireEvent.self, from: data) {
                            continuation.yield(.event(event))
                        } else if (try? decoder.decode(HTTPWire.ReadyFrame.self, from: data)) != nil {
                            opened.succeed()
                        }
                    }
                }
                if let close {
                    reason = close.reason.flatMap { $0.isEmpty ? nil : $0 } ?? "closed by the server (\(close.closeCode))"
                    // A refusal after the upgrade names the wire error.
                    let code = WireError.Code(rawValue: reason)
                    opened.fail(code.isKnown ? WireError(code) : TransportError(.failed, reason))
                }
            } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
                reason = "the server refused the event stream"
                opened.fail(await refusal(of: request))
            } catch {
                reason = Task.isCancelled ? "closed by the client" : "the event stream failed: \(error)"
                by = Task.isCancelled ? .client : .network
                opened.fail(TransportError(.failed, reason))
            }
            opened.fail(TransportError(.failed, reason))
            continuation.yield(.closed(reason: reason, by: by))
            continuation.finish()
        }
        do {
            try await withTaskCancellationHandler {
                try await opened.wait()
            } onCancel: {
                task.cancel()
            }
        } catch {
            task.cancel()
            throw error
        }
        return RealtimeConnection(signals: signals, close: { task.cancel() })
    }

    /// Why the server refused an upgrade: the same request without the
    /// upgrade (the document's `events` operation) gets the JSON error body.
    private func refusal(of request: RealtimeRequest) async -> any Error {
        let credentials = CredentialsMiddleware(
            apiKey: request.apiKey, accessToken: request.accessToken, deviceId: request.deviceId, headers: request.headers)
        do {
            return try await call("events", with: credentials) { client in
                let answer = try await client.events(query: .init(after: request.afterUserSeq))
                return TransportError(.failed, "The server refused the event stream (\(answer))")
            }
        } catch {
            return error
        }
    }
}

/// Resolves once: the event stream is subscribed, or it failed first.
final class OpenLatch: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Void, any Error>?)
        case done(Result<Void, any Error>)
    }

    private let state = LockedValue<State>(.waiting(nil))

    func succeed() { resolve(.success(())) }
    func fail(_ error: any Error) { resolve(.failure(error)) }

    private func resolve(_ result: Result<Void, any Error>) {
        let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return nil }
            state = .done(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let done: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let done { continuation.resume(with: done) }
        }
    }
}
