package import ChatCore

/// How the SDK reaches its backend. The embedded world provides one over its
/// simulated network; server mode one over HTTP and WebSocket. It speaks the
/// wire format, so it is the package's seam, not the app's: an app gives a
/// client a `ChatClient.Transport` (ChatSDKNetwork's `.http(baseURL:)`).
package protocol ChatTransport: Sendable {
    /// Performs one request. Throws the server's `WireError`, or a
    /// `TransportError` when the request or its answer was lost.
    func perform(_ envelope: WireEnvelope) async throws -> WireResponse

    /// Opens the realtime event stream of the user the token belongs to,
    /// starting after `afterUserSeq` (catch-up).
    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection

    /// Whether the network is reachable, now and at each change (what
    /// NWPathMonitor tells an app). The outbox and the realtime connection
    /// resume when it turns true (D7, D8).
    func reachability() -> AsyncStream<Bool>

    /// Whether the network is reachable right now, for a transport that
    /// can tell at once (what NWPathMonitor's current path says); nil when
    /// only `reachability()` can. Lets the SDK say a connection that died
    /// is down because the device is offline.
    var isReachable: Bool? { get }

    /// What `error`, thrown by the app's code on its way to its own backend
    /// (a token provider's request), amounts to as this transport's
    /// failures are classified (D7): the kind of a request that got no
    /// answer (refused, reset, timeout…), or nil when it is not the
    /// network's. The HTTP transport reads URLSession's errors as it reads
    /// its own; every transport knows its own `TransportError`.
    func networkFailure(of error: any Error) -> TransportError?
}

extension ChatTransport {
    /// A transport that cannot tell: always reachable.
    package func reachability() -> AsyncStream<Bool> {
        AsyncStream { $0.yield(true) }
    }

    package var isReachable: Bool? { nil }

    /// A transport's own failures, retryable ones only.
    package func networkFailure(of error: any Error) -> TransportError? {
        (error as? TransportError).flatMap { $0.kind.isRetryable ? $0 : nil }
    }
}

package struct RealtimeRequest: Sendable, Hashable {
    package var apiKey: String
    package var accessToken: String
    package var deviceId: String
    package var afterUserSeq: Int64?
    /// The app's header fields for its user's requests (`ChatAuth.headers`, A12).
    package var headers: [String: String]

    package init(apiKey: String, accessToken: String, deviceId: String, afterUserSeq: Int64?, headers: [String: String] = [:]) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.deviceId = deviceId
        self.afterUserSeq = afterUserSeq
        self.headers = headers
    }
}

/// An open realtime connection: its signals end with `.closed`.
package struct RealtimeConnection: Sendable {
    package let signals: AsyncStream<RealtimeSignal>
    package let close: @Sendable () -> Void

    package init(signals: AsyncStream<RealtimeSignal>, close: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.close = close
    }
}

package enum RealtimeSignal: Sendable, Hashable {
    case event(WireEvent)
    /// The stream ended, saying `reason`, ended `by` whom: what the SDK
    /// does depends on the reason alone; a recording keeps both, so that a
    /// view draws a cut of the network as the network's, without reading
    /// the reason's text (issue 30).
    case closed(reason: String, by: ClosedBy)
}

/// Who ended an event stream.
package enum ClosedBy: String, Sendable, Hashable, Codable {
    /// The server hung up (a close frame: logout, revoked tokens, a merge).
    case server
    /// The network: the device went offline, a fault cut the connection
    /// (`net drop`, `net offline`), or the socket failed.
    case network
    /// The client itself (its task cancelled while the stream opened).
    case client
}

/// A request or answer lost on the way, or an answer that is not the
/// server's word on the request. Its kind is what the SDK classifies (D7):
/// every kind but ``Kind/failed`` is *retryable*, the message stays
/// `toBeSent` and goes out again.
package struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How it was lost: a struct with static members, so that a kind added
    /// later breaks no caller's `switch`. Both modes produce the same kinds:
    /// the HTTP transport from its sockets' errors, the fault layer from
    /// `net fail --kind`. Codable as its raw value (a recorded request's
    /// answer keeps it).
    package struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The device has no network: nothing was sent.
        package static let offline = Kind(rawValue: "offline")
        /// No connection could be made (refused, no route, DNS, TLS): nothing was sent.
        package static let refused = Kind(rawValue: "refused")
        /// The connection broke on the way (reset, closed): the request may have arrived.
        package static let reset = Kind(rawValue: "reset")
        /// No answer in time: the request may have arrived.
        package static let timeout = Kind(rawValue: "timeout")
        /// The server (or a proxy) is unavailable for now: HTTP 502, 503, 504.
        package static let unavailable = Kind(rawValue: "unavailable")
        /// The server asks to come back later: HTTP 429 (with its `Retry-After`).
        package static let rateLimited = Kind(rawValue: "rateLimited")
        /// The request could not be made or its answer could not be read:
        /// sending it again would fail the same way. The only final kind.
        package static let failed = Kind(rawValue: "failed")

        /// Whether the request may succeed if sent again as it is (D7).
        package var isRetryable: Bool { self != .failed }
    }
    package let kind: Kind
    package let message: String
    /// How long the server asked to wait (`Retry-After`), when it said.
    package let retryAfter: Duration?

    package init(_ kind: Kind, _ message: String, retryAfter: Duration? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    package var description: String { message }
}
