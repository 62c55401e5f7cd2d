/// How the SDK reaches its backend. The embedded world provides one over its
/// simulated network; server mode one over HTTP and WebSocket.
public protocol ChatTransport: Sendable {
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
    public func reachability() -> AsyncStream<Bool> {
        AsyncStream { $0.yield(true) }
    }

    public var isReachable: Bool? { nil }
}

public struct RealtimeRequest: Sendable, Hashable {
    public var apiKey: String
    public var accessToken: String
    public var deviceId: String
    public var afterUserSeq: Int64?
    /// The app's header fields for its user's requests (`ChatAuth.headers`, A12).
    public var headers: [String: String]

    public init(apiKey: String, accessToken: String, deviceId: String, afterUserSeq: Int64?, headers: [String: String] = [:]) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.deviceId = deviceId
        self.afterUserSeq = afterUserSeq
        self.headers = headers
    }
}

/// An open realtime connection: its signals end with `.closed`.
public struct RealtimeConnection: Sendable {
    public let signals: AsyncStream<RealtimeSignal>
    public let close: @Sendable () -> Void

    public init(signals: AsyncStream<RealtimeSignal>, close: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.close = close
    }
}

public enum RealtimeSignal: Sendable, Hashable {
    case event(WireEvent)
    case closed(reason: String)
}

/// A request or answer lost on the way.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How it was lost: a struct with static members, so that a kind added
    /// later breaks no caller's `switch`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The device has no network: nothing was sent.
        public static let offline = Kind(rawValue: "offline")
        /// The request or its answer was lost on the way: it may have arrived.
        public static let failed = Kind(rawValue: "failed")
    }
    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
