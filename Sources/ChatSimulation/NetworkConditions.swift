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
///
/// Each device also has a link of its own (issue 29: a phone offline while
/// the tablet stays online): offline, a latency and failures to come for
/// that device alone, named by its device id. A device is online when the
/// network and its link are; its link's latency, when set, replaces the
/// network's; its link's failures come before the network's.
package final class NetworkConditions: Sendable {
    private struct State {
        var online = true
        var latency: Duration
        var failing: [FailureKind] = []
        var offlineDevices: Set<String> = []
        var deviceLatency: [String: Duration] = [:]
        var deviceFailing: [String: [FailureKind]] = [:]
        var requests = 0
        var offlineFailures = 0
        var listeners: [Int: (device: String?, continuation: AsyncStream<Bool>.Continuation)] = [:]
        var nextListener = 0
        var connections: [Int: (device: String?, cut: @Sendable (_ reason: String?) -> Void)] = [:]
        var nextConnection = 0
        /// Requests on the wire, by the order they left.
        var trips: [Int: WireTrip] = [:]
        var nextTrip = 0

        func isOnline(_ device: String?) -> Bool { online && !(device.map(offlineDevices.contains) ?? false) }
    }

    private let state: Mutex<State>
    private let faultSink = Mutex<(@Sendable (TrafficEntry.Fault) -> Void)?>(nil)

    package init(latency: Duration) {
        state = Mutex(State(latency: latency))
    }

    package var isOnline: Bool { state.withLock { $0.online } }
    package var latency: Duration { state.withLock { $0.latency } }
    /// Whether `device` can reach the network: the network is online and
    /// its link too (nil: the network alone).
    package func isOnline(device: String?) -> Bool { state.withLock { $0.isOnline(device) } }
    /// The one-way latency `device` sees: its link's, else the network's.
    package func latency(device: String?) -> Duration {
        state.withLock { s in device.flatMap { s.deviceLatency[$0] } ?? s.latency }
    }
    /// Requests that went through so far.
    package var requestCount: Int { state.withLock { $0.requests } }
    package var pendingFailures: Int { state.withLock { $0.failing.count + $0.deviceFailing.values.map(\.count).reduce(0, +) } }
    /// Requests and realtime connections that failed because the device
    /// was offline: tried, and never reached the server.
    package var offlineFailures: Int { state.withLock { $0.offlineFailures } }
    /// Realtime connections open across the network.
    package var openConnections: Int { state.withLock { $0.connections.count } }
    /// Realtime connections of one device.
    package func openConnections(device: String) -> Int {
        state.withLock { $0.connections.values.filter { $0.device == device }.count }
    }

    /// Sets the network on or off (`device` nil), or one device's link.
    /// Going offline cuts the realtime connections it carries (no word
    /// from the server reaches the client: it just ends), after the
    /// listeners hear of it; requests fail at once.
    package func setOnline(_ online: Bool, device: String? = nil) {
        let (changed, listeners) = state.withLock { s -> (Bool, [(AsyncStream<Bool>.Continuation, Bool)]) in
            let changes = device.map { s.offlineDevices.contains($0) == online } ?? (s.online != online)
            guard changes else { return (false, []) }
            let before = s.listeners.mapValues { s.isOnline($0.device) }
            if let device {
                if online { s.offlineDevices.remove(device) } else { s.offlineDevices.insert(device) }
            } else {
                s.online = online
            }
            // Only the listeners whose reachability changed hear of it.
            return (
                true,
                s.listeners.keys.sorted().compactMap { id in
                    guard let listener = s.listeners[id], before[id] != s.isOnline(listener.device) else { return nil }
                    return (listener.continuation, s.isOnline(listener.device))
                }
            )
        }
        if changed { report(online ? .online(device: device) : .offline(device: device)) }
        // The device learns it is offline before its connections notice:
        // a connection that dies with the network is down for that reason.
        for (listener, value) in listeners { listener.yield(value) }
        if !online { cutAll(reason: nil, device: device) }
    }

    /// The network's one-way latency, or one device's link's.
    package func setLatency(_ latency: Duration, device: String? = nil) {
        state.withLock { s in
            if let device { s.deviceLatency[device] = latency } else { s.latency = latency }
        }
        report(.latency(milliseconds: latency.wholeMilliseconds, device: device))
    }

    /// The next `count` requests (of `device`, when named) fail on the way,
    /// as `kind` says.
    package func failNext(_ count: Int, kind: FailureKind = .reset, device: String? = nil) {
        state.withLock { s in
            let failures = Array(repeating: kind, count: count)
            if let device { s.deviceFailing[device, default: []] += failures } else { s.failing += failures }
        }
        report(.failNext(count: count, kind: kind == .reset ? nil : kind.rawValue, device: device))
    }

    /// `net drop`: cuts the realtime connections (of `device`, when named)
    /// as the server hanging up.
    package func dropConnections(device: String? = nil) {
        report(.drop(device: device))
        cutAll(reason: "connection dropped", device: device)
    }

    // MARK: Faults, as they happen

    /// `sink` is told each change (`offline`, `online`, `latency 200ms`,
    /// `fail next 3`) and each fault reported (`drop`, `restart …`), when it
    /// happens: what the workbench records of the network.
    package func onFault(_ sink: (@Sendable (TrafficEntry.Fault) -> Void)?) { faultSink.withLock { $0 = sink } }

    /// Tells the fault sink about `fault`.
    package func report(_ fault: TrafficEntry.Fault) {
        let sink = faultSink.withLock { $0 }
        sink?(fault)
    }

    /// How this request (of `device`) fails, if it is one to fail (and
    /// counts it off): its link's failures first, then the network's.
    package func consumeFailure(device: String? = nil) -> FailureKind? {
        state.withLock { s in
            if let device, var failing = s.deviceFailing[device], !failing.isEmpty {
                let kind = failing.removeFirst()
                s.deviceFailing[device] = failing.isEmpty ? nil : failing
                return kind
            }
            guard !s.failing.isEmpty else { return nil }
            return s.failing.removeFirst()
        }
    }

    package func countRequest() { state.withLock { $0.requests += 1 } }

    /// Throws when the device is offline (the network, or its link),
    /// counting the failure (a request fails at its first failed check, so
    /// each counts once).
    package func checkOnline(device: String? = nil) throws {
        let online = state.withLock { s in
            let online = s.isOnline(device)
            if !online { s.offlineFailures += 1 }
            return online
        }
        guard online else { throw TransportError(.offline, "The device is offline") }
    }

    // MARK: Connections to cut

    /// Registers a realtime connection that the network cuts by calling
    /// `cut` with its id (once, and only if it is still registered) and a
    /// reason: the server hanging up, or nil for dying with the network.
    /// Returns the connection's id; ids grow in the order of opening.
    package func register(device: String? = nil, cut: @escaping @Sendable (_ id: Int, _ reason: String?) -> Void) -> Int {
        state.withLock { s in
            let id = s.nextConnection
            s.nextConnection += 1
            s.connections[id] = (device, { reason in cut(id, reason) })
            return id
        }
    }

    /// Forgets a connection that ended otherwise; false when it was not
    /// registered (any more).
    @discardableResult
    package func unregister(_ id: Int) -> Bool {
        state.withLock { $0.connections.removeValue(forKey: id) } != nil
    }

    /// Cuts every registered connection (of `device`, when named), the
    /// oldest first: with a reason, as the server hanging up; with none, as
    /// dying with the network.
    package func cutAll(reason: String?, device: String? = nil) {
        let cuts = state.withLock { s -> [@Sendable (String?) -> Void] in
            let ids = s.connections.keys.sorted().filter { device == nil || s.connections[$0]?.device == device }
            return ids.compactMap { s.connections.removeValue(forKey: $0)?.cut }
        }
        for cut in cuts { cut(reason) }
    }

    // MARK: Requests on the wire

    /// A request of `device` leaves: on the wire until ``land(_:)``, and
    /// cut by ``cutInFlight(at:cause:device:)`` meanwhile.
    package func depart(_ name: String, device: String?) -> (id: Int, trip: WireTrip) {
        let trip = WireTrip(name: name, device: device)
        let id = state.withLock { s in
            let id = s.nextTrip
            s.nextTrip += 1
            s.trips[id] = trip
            return id
        }
        return (id, trip)
    }

    /// The request's trip is over (answered, failed or cut).
    package func land(_ id: Int) { _ = state.withLock { $0.trips.removeValue(forKey: id) } }

    /// Requests on the wire (of `device`, when named).
    package func requestsInFlight(device: String? = nil) -> Int {
        state.withLock { $0.trips.values.filter { device == nil || $0.device == device }.count }
    }

    /// Cuts every request on the wire (of `device`, when named), the oldest
    /// first, at `point` (`cause` names the verb): each fails in its client
    /// as a lost connection, before its server did it or after. Returns
    /// what was lost, in order: each request's name and where it was lost
    /// (after the commit for one the server had already done).
    package func cutInFlight(at point: CutPoint, cause: String, device: String? = nil) -> [(name: String, fate: CutPoint)] {
        let trips = state.withLock { s -> [WireTrip] in
            let ids = s.trips.keys.sorted().filter { device == nil || s.trips[$0]?.device == device }
            return ids.compactMap { s.trips.removeValue(forKey: $0) }
        }
        let lost = trips.compactMap { trip in trip.cut(at: point, cause: cause).map { (name: trip.name, fate: $0) } }
        if !lost.isEmpty { report(.cut(count: lost.count, point: point.rawValue, device: device)) }
        return lost
    }

    // MARK: Reachability

    /// Reachability as a device sees it (nil: the network alone): the
    /// current value, then changes.
    package func reachability(device: String? = nil) -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let id = state.withLock { s in
            let id = s.nextListener
            s.nextListener += 1
            s.listeners[id] = (device, continuation)
            continuation.yield(s.isOnline(device))
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
