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
}

extension ChatTransport {
    /// A transport that cannot tell: always reachable.
    package func reachability() -> AsyncStream<Bool> {
        AsyncStream { $0.yield(true) }
    }

    package var isReachable: Bool? { nil }
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
    case closed(reason: String)
}

/// A request or answer lost on the way.
package struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How it was lost: a struct with static members, so that a kind added
    /// later breaks no caller's `switch`.
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The device has no network: nothing was sent.
        package static let offline = Kind(rawValue: "offline")
        /// The request or its answer was lost on the way: it may have arrived.
        package static let failed = Kind(rawValue: "failed")
    }
    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
