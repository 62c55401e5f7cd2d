internal import ChatSimulation

/// The device's network in a ``ChatTestWorld``: what the SDK meets on the
/// way to the server. Each change applies to the requests that follow.
public struct TestNetwork: Sendable {
    let driver: WorldDriver

    /// How a request fails (what a real transport reports).
    public enum Failure: String, Sendable, Hashable, CaseIterable {
        /// The connection was reset on the way there: the server never saw it.
        case reset
        /// No connection: refused at once.
        case refused
        /// The request reached the server, but no answer came in time.
        case timeout
        /// A proxy in front of the server answered HTTP 503.
        case unavailable
        /// The device said it has no network for this request.
        case offline

        var kind: FailureKind {
            switch self {
            case .reset: .reset
            case .refused: .refused
            case .timeout: .timeout
            case .unavailable: .unavailable
            case .offline: .offline
            }
        }
    }

    /// The device goes offline: requests fail at once, event streams close,
    /// and reachability says so (as `NWPathMonitor` would).
    public func goOffline() async { await driver.perform { $0.network.setOnline(false) } }

    /// The device is back online: the SDK reconnects and resends.
    public func goOnline() async { await driver.perform { $0.network.setOnline(true) } }

    /// The next `count` requests fail with `failure`.
    public func failNext(_ count: Int, with failure: Failure = .reset) async {
        await driver.perform { $0.network.failNext(count, kind: failure.kind) }
    }

    /// Each request and event takes `latency` each way (jittered, seeded).
    public func setLatency(_ latency: Duration) async { await driver.perform { $0.network.setLatency(latency) } }

    /// Cuts every open event stream, as a flaky network does; the SDK
    /// reconnects after its back-off (``ChatTestWorld/settle(limit:)``).
    public func dropConnections() async { await driver.perform { $0.network.dropAll() } }

    /// How many requests reached the server so far.
    public var requestCount: Int { get async { await driver.perform { $0.network.requestCount } } }
}
