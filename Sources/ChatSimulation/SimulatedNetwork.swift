import ChatBackend
import ChatCore
import ChatSDK
import Synchronization

/// The in-process network between SDK clients and the backend: latency
/// with seeded jitter, and the realtime connections the backend pushes to.
/// Its faults (offline, `net fail`, cuts) are its ``NetworkConditions``,
/// applied by the ``FaultInjectingTransport`` in front of each client.
package final class SimulatedNetwork: Sendable {
    struct Connection {
        var continuation: AsyncStream<RealtimeSignal>.Continuation
        var subscription: SubscriptionID?
        var lastDelivery: Instant
        /// Who opened it and its exchange number, for the wire observer.
        var deviceId = ""
        var exchange = 0
        /// Where its frames' latency jitter is drawn from (its transport's stream).
        var latency: RandomSource
    }

    /// Open connections by their id in the conditions.
    private let connections = Mutex<[Int: Connection]>([:])
    private let wireObserver = Mutex<(any WireObserver)?>(nil)
    /// Online, latency, failures to come, requests so far, connections to cut.
    package let conditions = NetworkConditions(latency: .milliseconds(20))
    private let scheduler: Scheduler
    let backend: Backend

    init(scheduler: Scheduler, backend: Backend) {
        self.scheduler = scheduler
        self.backend = backend
    }

    /// Tells `observer` what crosses this network from now on (nil: no one).
    package func observe(_ observer: (any WireObserver)?) { wireObserver.withLock { $0 = observer } }
    var observer: (any WireObserver)? { wireObserver.withLock { $0 } }

    // MARK: Faults

    package var isOnline: Bool { conditions.isOnline }
    package var latency: Duration { conditions.latency }
    /// Requests that reached the backend so far.
    package var requestCount: Int { conditions.requestCount }
    package var openConnections: Int { conditions.openConnections }
    package var pendingFailures: Int { conditions.pendingFailures }

    /// Going offline cuts every realtime connection (no word from the
    /// server reaches the client: it just ends); requests fail at once.
    package func setOnline(_ online: Bool) { conditions.setOnline(online) }

    package func setLatency(_ latency: Duration) { conditions.setLatency(latency) }

    /// The next `count` requests fail on the way, as `kind` says.
    package func failNext(_ count: Int, kind: FailureKind = .reset) { conditions.failNext(count, kind: kind) }

    /// Cuts every realtime connection: the server side hangs up saying
    /// `reason`, or (nil) the connection just dies with the network.
    package func dropAll(reason: String? = "connection dropped") { conditions.cutAll(reason: reason) }

    /// How the conditions cut connection `id`.
    private func cut(_ id: Int, reason: String?) {
        guard let connection = connections.withLock({ $0.removeValue(forKey: id) }) else { return }
        if let subscription = connection.subscription { backend.unsubscribe(subscription) }
        // The recording sees the connection end either way; the client
        // hears a reason only from a server that hangs up.
        observer?.signal(
            .closed(reason: reason ?? "network offline", by: .network), deviceId: connection.deviceId, exchange: connection.exchange)
        if let reason { connection.continuation.yield(.closed(reason: reason, by: .network)) }
        connection.continuation.finish()
    }

    // MARK: Delivery

    /// Each leg of a trip: the latency with a little seeded jitter (up to a
    /// quarter) drawn from `jitter`, the transport's own stream, there and back.
    func tripLatency(jitter: RandomSource) -> FaultInjectingTransport.Latency {
        FaultInjectingTransport.Latency(
            there: { self.oneWay(device: $0, jitter: jitter) }, back: { self.oneWay(device: $0, jitter: jitter) })
    }

    /// One-way latency to or from `device` (its link's, else the
    /// network's), with a little seeded jitter (up to a quarter).
    func oneWay(device: String?, jitter: RandomSource) -> Duration {
        let base = conditions.latency(device: device).wholeMilliseconds
        let extra = base >= 4 ? Int64(jitter.int(in: 0...Int(base / 4))) : 0
        return .milliseconds(base + extra)
    }

    /// One-way latency of a frame on connection `id`.
    private func oneWay(connection id: Int) -> Duration {
        guard let connection = connections.withLock({ $0[id] }) else { return .zero }
        return oneWay(device: connection.deviceId, jitter: connection.latency)
    }

    func open(deviceId: String, exchange: Int, latency: RandomSource) -> (Int, AsyncStream<RealtimeSignal>) {
        let (stream, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let id = conditions.register(device: deviceId) { [weak self] id, reason in self?.cut(id, reason: reason) }
        connections.withLock {
            $0[id] = Connection(
                continuation: continuation, subscription: nil, lastDelivery: scheduler.now, deviceId: deviceId, exchange: exchange,
                latency: latency)
        }
        return (id, stream)
    }

    func attach(_ subscription: SubscriptionID, to id: Int) {
        connections.withLock { $0[id]?.subscription = subscription }
    }

    /// Delivers a pushed event after the latency, in order per connection.
    func deliver(_ event: WireEvent, to id: Int) {
        let delay = oneWay(connection: id)
        let time: Instant? = connections.withLock { connections in
            guard var connection = connections[id] else { return nil }
            let time = max(scheduler.now + delay, connection.lastDelivery)
            connection.lastDelivery = time
            connections[id] = connection
            return time
        }
        guard let time else { return }
        scheduler.schedule(at: time, kind: .inFlight) { [self] in
            guard let connection = connections.withLock({ $0[id] }) else { return }
            observer?.signal(.event(event), deviceId: connection.deviceId, exchange: connection.exchange)
            connection.continuation.yield(.event(event))
        }
    }

    /// The server ends a connection (logout, revoked tokens, a merged
    /// user): after the events already on their way, the client is told why.
    func closeFromServer(_ id: Int, reason: String) {
        let delay = oneWay(connection: id)
        let time: Instant? = connections.withLock { connections in
            guard let connection = connections[id] else { return nil }
            return max(scheduler.now + delay, connection.lastDelivery)
        }
        guard let time else { return }
        scheduler.schedule(at: time, kind: .inFlight) { [self] in
            guard let connection = connections.withLock({ $0.removeValue(forKey: id) }) else { return }
            conditions.unregister(id)
            observer?.signal(.closed(reason: reason, by: .server), deviceId: connection.deviceId, exchange: connection.exchange)
            connection.continuation.yield(.closed(reason: reason, by: .server))
            connection.continuation.finish()
        }
    }

    /// Closes a connection from the client's side (`refused`: the server
    /// would not open it, and the observer hears of that instead).
    func close(_ id: Int, refused: Bool = false) {
        let connection = connections.withLock { $0.removeValue(forKey: id) }
        guard let connection else { return }
        conditions.unregister(id)
        if let subscription = connection.subscription { backend.unsubscribe(subscription) }
        if !refused { observer?.closedByClient(deviceId: connection.deviceId, exchange: connection.exchange) }
        connection.continuation.finish()
    }
}

/// A client's way onto the simulated network: the one fault-injecting
/// transport in front of the backend, and the wire observer outside both.
struct SimulatedTransport: ChatTransport {
    let world: World
    let network: SimulatedNetwork
    /// The client's device: its reachability is its link's and the network's.
    let deviceId: String?
    /// Where the latency jitter of this transport's trips is drawn from: a
    /// stream of its own (``World/makeTransport(deviceId:)``).
    let latency: RandomSource
    /// The faults in front of the backend for requests (and openings when
    /// nobody observes them), made once: every request of the send path
    /// goes through it.
    private let requests: FaultInjectingTransport

    init(world: World, network: SimulatedNetwork, deviceId: String?, latency: RandomSource) {
        self.world = world
        self.network = network
        self.deviceId = deviceId
        self.latency = latency
        requests = Self.faults(world: world, network: network, exchange: 0, deviceId: deviceId, latency: latency)
    }

    /// The faults in front of the backend; `exchange` numbers an opening
    /// for the wire observer.
    private static func faults(
        world: World, network: SimulatedNetwork, exchange: Int, deviceId: String?, latency: RandomSource
    ) -> FaultInjectingTransport {
        FaultInjectingTransport(
            over: BackendHop(network: network, exchange: exchange, latency: latency), conditions: network.conditions, runtime: world,
            latency: network.tripLatency(jitter: latency), deviceId: deviceId)
    }

    /// What crosses is told to the network's observer here, at the
    /// boundary: a request lost on the way (offline, `net fail`) too.
    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        guard let observer = network.observer else { return try await requests.perform(envelope) }
        // Called directly, not through a closure: another async frame would
        // change the order of the world's jobs, and with it the transcripts.
        let exchange = observer.request(envelope)
        do {
            return observer.answered(try await requests.perform(envelope), to: envelope, exchange: exchange)
        } catch {
            throw observer.failed(error, for: envelope, exchange: exchange)
        }
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        guard let observer = network.observer else { return try await requests.openRealtime(request) }
        let exchange = observer.opening(request)
        do {
            let connection = try await Self.faults(world: world, network: network, exchange: exchange, deviceId: deviceId, latency: latency)
                .openRealtime(
                    request)
            observer.opened(.success(()), deviceId: request.deviceId, exchange: exchange)
            return connection
        } catch {
            observer.opened(.failure(error), deviceId: request.deviceId, exchange: exchange)
            throw error
        }
    }

    func reachability() -> AsyncStream<Bool> { network.conditions.reachability(device: deviceId) }

    var isReachable: Bool? { network.conditions.isOnline(device: deviceId) }
}

/// The far end of the simulated network: the in-process backend, reached
/// at once (the latency and the faults are in front of it).
struct BackendHop: ChatTransport {
    let network: SimulatedNetwork
    /// The opening's exchange number, for the wire observer.
    var exchange = 0
    /// Its transport's latency stream, for the connection's frames.
    let latency: RandomSource

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        try network.backend.handle(envelope).get()
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let (id, stream) = network.open(deviceId: request.deviceId, exchange: exchange, latency: latency)
        let network = self.network
        let result = network.backend.subscribe(
            apiKey: request.apiKey, accessToken: request.accessToken, afterUserSeq: request.afterUserSeq,
            sink: { event in network.deliver(event, to: id) },
            onClose: { error in network.closeFromServer(id, reason: error.message) })
        switch result {
        case .failure(let error):
            network.close(id, refused: true)
            throw error
        case .success(let subscription):
            network.attach(subscription, to: id)
        }
        return RealtimeConnection(signals: stream, close: { network.close(id) })
    }
}
