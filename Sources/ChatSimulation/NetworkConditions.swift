import ChatCore
import ChatSDK
import Synchronization

/// How a request that `net fail` loses fails: the kinds of failure a real
/// transport produces, which the SDK classifies as it classifies the HTTP
/// transport's (D7). All are retryable.
package enum FailureKind: String, Sendable, Hashable, CaseIterable {
    /// The connection was reset on the way there: the server never saw it (the default).
    case reset
    /// No connection: refused at once, before any latency.
    case refused
    /// The request reached the server, but no answer came within
    /// ``FaultInjectingTransport/timeout``.
    case timeout
    /// The server (a proxy in front of it) answered HTTP 503 without doing it.
    case unavailable = "503"
    /// The device said it has no network for this request (without going
    /// offline: reachability does not change).
    case offline
}

/// The conditions of a network as `net …` verbs set them: online or not,
/// latency, the next requests to fail, how many requests went through, the
/// realtime connections to cut, and who listens to reachability (what
/// NWPathMonitor tells an app). The embedded world's network and the fault
/// layer in front of a real server both keep theirs in one of these, and
/// both apply them through one ``FaultInjectingTransport``.
package final class NetworkConditions: Sendable {
    private struct State {
        var online = true
        var latency: Duration
        var failing: [FailureKind] = []
        var requests = 0
        var offlineFailures = 0
        var listeners: [Int: AsyncStream<Bool>.Continuation] = [:]
        var nextListener = 0
        var connections: [Int: @Sendable (_ reason: String?) -> Void] = [:]
        var nextConnection = 0
    }

    private let state: Mutex<State>
    private let faultSink = Mutex<(@Sendable (String) -> Void)?>(nil)

    package init(latency: Duration) {
        state = Mutex(State(latency: latency))
    }

    package var isOnline: Bool { state.withLock { $0.online } }
    package var latency: Duration { state.withLock { $0.latency } }
    /// Requests that went through so far.
    package var requestCount: Int { state.withLock { $0.requests } }
    package var pendingFailures: Int { state.withLock { $0.failing.count } }
    /// Requests and realtime connections that failed because the device
    /// was offline: tried, and never reached the server.
    package var offlineFailures: Int { state.withLock { $0.offlineFailures } }
    /// Realtime connections open across the network.
    package var openConnections: Int { state.withLock { $0.connections.count } }

    /// Sets the network on or off. Going offline cuts every realtime
    /// connection (no word from the server reaches the client: it just
    /// ends), after the listeners hear of it; requests fail at once.
    package func setOnline(_ online: Bool) {
        let (changed, listeners) = state.withLock { s -> (Bool, [AsyncStream<Bool>.Continuation]) in
            guard s.online != online else { return (false, []) }
            s.online = online
            return (true, s.listeners.keys.sorted().compactMap { s.listeners[$0] })
        }
        if changed { report(online ? "online" : "offline") }
        // The device learns it is offline before its connections notice:
        // a connection that dies with the network is down for that reason.
        for listener in listeners { listener.yield(online) }
        if !online { cutAll(reason: nil) }
    }

    package func setLatency(_ latency: Duration) {
        state.withLock { $0.latency = latency }
        report("latency \(latency.wholeMilliseconds)ms")
    }

    /// The next `count` requests fail on the way, as `kind` says.
    package func failNext(_ count: Int, kind: FailureKind = .reset) {
        state.withLock { $0.failing += Array(repeating: kind, count: count) }
        report(kind == .reset ? "fail next \(count)" : "fail next \(count) (\(kind.rawValue))")
    }

    /// `net drop`: cuts every realtime connection as the server hanging up.
    package func dropConnections() {
        report("drop")
        cutAll(reason: "connection dropped")
    }

    // MARK: Faults, as they happen

    /// `sink` is told each change (`offline`, `online`, `latency 200ms`,
    /// `fail next 3`) and each fault reported (`drop`, `restart …`), when it
    /// happens: what the workbench records of the network.
    package func onFault(_ sink: (@Sendable (String) -> Void)?) { faultSink.withLock { $0 = sink } }

    /// Tells the fault sink about `fault`.
    package func report(_ fault: String) {
        let sink = faultSink.withLock { $0 }
        sink?(fault)
    }

    /// How this request fails, if it is one to fail (and counts it off).
    package func consumeFailure() -> FailureKind? {
        state.withLock { s in
            guard !s.failing.isEmpty else { return nil }
            return s.failing.removeFirst()
        }
    }

    package func countRequest() { state.withLock { $0.requests += 1 } }

    /// Throws when the device is offline, counting the failure (a request
    /// fails at its first failed check, so each counts once).
    package func checkOnline() throws {
        let online = state.withLock { s in
            if !s.online { s.offlineFailures += 1 }
            return s.online
        }
        guard online else { throw TransportError(.offline, "The device is offline") }
    }

    // MARK: Connections to cut

    /// Registers a realtime connection that the network cuts by calling
    /// `cut` with its id (once, and only if it is still registered) and a
    /// reason: the server hanging up, or nil for dying with the network.
    /// Returns the connection's id; ids grow in the order of opening.
    package func register(cut: @escaping @Sendable (_ id: Int, _ reason: String?) -> Void) -> Int {
        state.withLock { s in
            let id = s.nextConnection
            s.nextConnection += 1
            s.connections[id] = { reason in cut(id, reason) }
            return id
        }
    }

    /// Forgets a connection that ended otherwise; false when it was not
    /// registered (any more).
    @discardableResult
    package func unregister(_ id: Int) -> Bool {
        state.withLock { $0.connections.removeValue(forKey: id) } != nil
    }

    /// Cuts every registered connection, the oldest first: with a reason,
    /// as the server hanging up; with none, as dying with the network.
    package func cutAll(reason: String?) {
        let cuts = state.withLock { s -> [@Sendable (String?) -> Void] in
            defer { s.connections = [:] }
            return s.connections.keys.sorted().compactMap { s.connections[$0] }
        }
        for cut in cuts { cut(reason) }
    }

    // MARK: Reachability

    /// Reachability as a device sees it: the current value, then changes.
    package func reachability() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let id = state.withLock { s in
            let id = s.nextListener
            s.nextListener += 1
            s.listeners[id] = continuation
            continuation.yield(s.online)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
