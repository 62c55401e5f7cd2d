import ChatCore
import ChatSDK

/// The one fault-injecting transport: in front of whatever carries a
/// client's requests (the embedded world's backend, a real server, a tape),
/// it applies the faults of a ``NetworkConditions`` the same way in both
/// modes:
///
/// - offline: a request or an opening fails at once, and when the network
///   went offline on its way;
/// - `net fail N [--kind K]`: the next N requests fail as a real transport's
///   do (``FailureKind``): `reset` (the default) is lost on the way, decided
///   when it leaves and thrown when it would have arrived; `refused` and
///   `offline` fail at once; `503` comes back from the server undone;
///   `timeout` reaches the server and its answer never comes;
/// - latency: each leg of a trip waits on the runtime's clock, as work in
///   flight (``Latency`` says how long each leg takes in each mode);
/// - cuts: the inner transport registers each realtime connection with the
///   conditions, which cut them all when the network goes offline or
///   `net drop` drops them; each request on the wire is registered too
///   (a ``WireTrip``), and `--in-flight before-commit|after-commit` on
///   those verbs loses it at once, before the server does it or after
///   (its answer lost), as a lost connection (`reset`).
///
/// ```swift
/// let transport = FaultInjectingTransport(
///     over: real, conditions: conditions, runtime: runtime, latency: .added(by: conditions))
/// ```
package struct FaultInjectingTransport: ChatTransport {
    /// How long each leg of a trip takes; nil: no wait at all.
    package struct Latency: Sendable {
        /// The way there for a device: a request, an opening.
        package var there: @Sendable (_ device: String) -> Duration?
        /// The way back to a device: an answer, an opening's acknowledgement.
        package var back: @Sendable (_ device: String) -> Duration?

        package init(
            there: @escaping @Sendable (_ device: String) -> Duration?, back: @escaping @Sendable (_ device: String) -> Duration?
        ) {
            self.there = there
            self.back = back
        }

        /// `net latency D` in front of a real server: D (the device's link's,
        /// else the network's) before each request or opening, when it is
        /// more than zero; nothing on the way back.
        package static func added(by conditions: NetworkConditions) -> Latency {
            Latency(
                there: { device in
                    let latency = conditions.latency(device: device)
                    return latency > .zero ? latency : nil
                }, back: { _ in nil })
        }
    }

    let inner: any ChatTransport
    let conditions: NetworkConditions
    let runtime: any TracingRuntime
    let latency: Latency
    /// Told of each request `net fail` loses (in server mode the tape is
    /// below this layer and never sees it).
    let onLost: (@Sendable (WireEnvelope) -> Void)?
    /// The device whose reachability this transport reports (its requests
    /// and openings name their device themselves); nil: the network's.
    let deviceId: String?

    package init(
        over inner: any ChatTransport, conditions: NetworkConditions, runtime: any TracingRuntime, latency: Latency,
        deviceId: String? = nil, onLost: (@Sendable (WireEnvelope) -> Void)? = nil
    ) {
        self.inner = inner
        self.conditions = conditions
        self.runtime = runtime
        self.latency = latency
        self.deviceId = deviceId
        self.onLost = onLost
    }

    package func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        let device = deviceId ?? envelope.deviceId
        try conditions.checkOnline(device: device)
        let failure = conditions.consumeFailure(device: device)
        switch failure {
        case .refused: throw lose(envelope, TransportError(.refused, "Connection refused (net fail)"))
        case .offline: throw lose(envelope, TransportError(.offline, "The device is offline (net fail)"))
        default: break
        }
        // On the wire from here: a cut with `--in-flight` loses it (not one
        // `net fail` loses on the way anyway).
        let trip = failure == nil || failure == .timeout ? conditions.depart(envelope.request.name, device: device) : nil
        defer { if let trip { conditions.land(trip.id) } }
        // Cut on the way there: lost, or (after-commit) it reaches the
        // server at once and its answer is lost.
        var cutThere: WireTrip.Cut?
        do { try await travel(latency.there(device), trip?.trip) } catch let cut as WireTrip.Cut {
            guard cut.fate == .afterCommit else { throw lose(envelope, cut.error, by: cut.cause) }
            cutThere = cut
        }
        switch failure {
        case .reset: throw lose(envelope, TransportError(.reset, "The connection was reset (net fail)"))
        case .unavailable:
            try await travel(latency.back(device))
            throw lose(envelope, TransportError(.unavailable, "The server answered HTTP 503 (net fail)"))
        default: break
        }
        if cutThere == nil { try conditions.checkOnline(device: device) }
        conditions.countRequest()
        trip?.trip.arrive()
        let result: Result<WireResponse, any Error>
        do { result = .success(try await inner.perform(envelope)) } catch { result = .failure(error) }
        runtime.trace(.request(name: envelope.request.name, answer: RequestAnswer(result)))
        do {
            if let cutThere { throw cutThere }
            if failure == .timeout {
                // It arrived and was done; its answer is lost.
                try await travel(Self.timeout, trip?.trip)
                runtime.trace(.request(name: envelope.request.name, answer: .failed(kind: .timeout, cause: "net fail")))
                throw TransportError(.timeout, "The request timed out (net fail)")
            }
            try await travel(latency.back(device), trip?.trip)
        } catch let cut as WireTrip.Cut {
            runtime.trace(.request(name: envelope.request.name, answer: .answerLost(cause: cut.cause)))
            throw cut.error
        }
        try conditions.checkOnline(device: device)
        return try result.get()
    }

    /// How long a request whose answer is lost (`net fail --kind timeout`)
    /// waits before it fails, as a request's deadline would.
    package static let timeout: Duration = .seconds(5)

    /// A request `net fail` (or a cut, `by` its verb) lost before the
    /// server did it: traced and reported as such.
    private func lose(_ envelope: WireEnvelope, _ error: TransportError, by cause: String = "net fail") -> TransportError {
        onLost?(envelope)
        runtime.trace(.request(name: envelope.request.name, answer: .failed(kind: error.kind, cause: cause)))
        return error
    }

    package func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let device = deviceId ?? request.deviceId
        try conditions.checkOnline(device: device)
        try await travel(latency.there(device))
        try conditions.checkOnline(device: device)
        conditions.countRequest()
        let connection = try await inner.openRealtime(request)
        try await travel(latency.back(device))
        return connection
    }

    package func reachability() -> AsyncStream<Bool> { conditions.reachability(device: deviceId) }

    package var isReachable: Bool? { conditions.isOnline(device: deviceId) }

    /// One leg of a trip; a cut of `trip` ends it, throwing the cut.
    private func travel(_ duration: Duration?, _ trip: WireTrip? = nil) async throws {
        guard let duration else {
            if let cut = trip?.cutSoFar { throw cut }
            return
        }
        if let trip {
            try await runtime.sleep(until: runtime.now + duration, kind: .inFlight, trip: trip)
        } else {
            try await runtime.sleep(for: duration, kind: .inFlight)
        }
    }
}
