import ChatBackend
import ChatCore
import ChatSDK
import Synchronization

/// The in-process network between SDK clients and the backend: latency,
/// offline, injected failures, and realtime connections that can be cut.
package final class SimulatedNetwork: Sendable {
    struct Connection {
        var continuation: AsyncStream<RealtimeSignal>.Continuation
        var subscription: SubscriptionID?
        var lastDelivery: Instant
        /// Who opened it and its exchange number, for the wire observer.
        var deviceId = ""
        var exchange = 0
    }

    struct State {
        var connections: [Int: Connection] = [:]
        var nextConnection = 0
    }

    private let state = Mutex(State())
    private let wireObserver = Mutex<(any WireObserver)?>(nil)
    /// Online, latency, failures to come, requests so far.
    package let conditions = NetworkConditions(latency: .milliseconds(20))
    private let scheduler: Scheduler
    private let random: RandomSource
    let backend: Backend

    init(scheduler: Scheduler, random: RandomSource, backend: Backend) {
        self.scheduler = scheduler
        self.random = random
        self.backend = backend
    }

    /// Tells `observer` what crosses this network from now on.
    package func observe(_ observer: any WireObserver) { wireObserver.withLock { $0 = observer } }
    var observer: (any WireObserver)? { wireObserver.withLock { $0 } }

    // MARK: Faults

    package var isOnline: Bool { conditions.isOnline }
    package var latency: Duration { conditions.latency }
    /// Requests that reached the backend so far.
    package var requestCount: Int { conditions.requestCount }
    package var openConnections: Int { state.withLock { $0.connections.count } }
    package var pendingFailures: Int { conditions.pendingFailures }

    /// Going offline cuts every realtime connection (no word from the
    /// server reaches the client: it just ends); requests fail at once.
    package func setOnline(_ online: Bool) {
        conditions.setOnline(online) { if !online { dropAll(reason: nil) } }
    }

    /// Reachability as a device sees it: the current value, then changes.
    func reachability() -> AsyncStream<Bool> { conditions.reachability() }

    package func setLatency(_ latency: Duration) { conditions.setLatency(latency) }

    /// The next `count` requests fail on the way.
    package func failNext(_ count: Int) { conditions.failNext(count) }

    /// Cuts every realtime connection: the server side hangs up saying
    /// `reason`, or (nil) the connection just dies with the network.
    package func dropAll(reason: String? = "connection dropped") {
        let dropped = state.withLock { s -> [Connection] in
            defer { s.connections = [:] }
            return s.connections.keys.sorted().compactMap { s.connections[$0] }
        }
        for connection in dropped {
            if let subscription = connection.subscription { backend.unsubscribe(subscription) }
            // The recording sees the connection end either way; the client
            // hears a reason only from a server that hangs up.
            observer?.signal(.closed(reason: reason ?? "network offline"), deviceId: connection.deviceId, exchange: connection.exchange)
            if let reason { connection.continuation.yield(.closed(reason: reason)) }
            connection.continuation.finish()
        }
    }

    // MARK: Delivery

    /// One-way latency with a little seeded jitter (up to a quarter).
    func oneWay() -> Duration {
        let base = latency.wholeMilliseconds
        let jitter = base >= 4 ? Int64(random.int(in: 0...Int(base / 4))) : 0
        return .milliseconds(base + jitter)
    }

    func checkOnline() throws { try conditions.checkOnline() }
    func consumeFailure() -> Bool { conditions.consumeFailure() }
    func countRequest() { conditions.countRequest() }

    func open(deviceId: String, exchange: Int) -> (Int, AsyncStream<RealtimeSignal>) {
        let (stream, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let id = state.withLock { s in
            let id = s.nextConnection
            s.nextConnection += 1
            s.connections[id] = Connection(
                continuation: continuation, subscription: nil, lastDelivery: scheduler.now, deviceId: deviceId, exchange: exchange)
            return id
        }
        return (id, stream)
    }

    func attach(_ subscription: SubscriptionID, to id: Int) {
        state.withLock { $0.connections[id]?.subscription = subscription }
    }

    /// Delivers a pushed event after the latency, in order per connection.
    func deliver(_ event: WireEvent, to id: Int) {
        let delay = oneWay()
        let time: Instant? = state.withLock { s in
            guard var connection = s.connections[id] else { return nil }
            let time = max(scheduler.now + delay, connection.lastDelivery)
            connection.lastDelivery = time
            s.connections[id] = connection
            return time
        }
        guard let time else { return }
        scheduler.schedule(at: time, kind: .inFlight) { [self] in
            guard let connection = state.withLock({ $0.connections[id] }) else { return }
            observer?.signal(.event(event), deviceId: connection.deviceId, exchange: connection.exchange)
            connection.continuation.yield(.event(event))
        }
    }

    /// The server ends a connection (logout, revoked tokens, a merged
    /// user): after the events already on their way, the client is told why.
    func closeFromServer(_ id: Int, reason: String) {
        let delay = oneWay()
        let time: Instant? = state.withLock { s in
            guard let connection = s.connections[id] else { return nil }
            return max(scheduler.now + delay, connection.lastDelivery)
        }
        guard let time else { return }
        scheduler.schedule(at: time, kind: .inFlight) { [self] in
            guard let connection = state.withLock({ $0.connections.removeValue(forKey: id) }) else { return }
            observer?.signal(.closed(reason: reason), deviceId: connection.deviceId, exchange: connection.exchange)
            connection.continuation.yield(.closed(reason: reason))
            connection.continuation.finish()
        }
    }

    /// Closes a connection from the client's side (`refused`: the server
    /// would not open it, and the observer hears of that instead).
    func close(_ id: Int, refused: Bool = false) {
        let connection = state.withLock { $0.connections.removeValue(forKey: id) }
        guard let connection else { return }
        if let subscription = connection.subscription { backend.unsubscribe(subscription) }
        if !refused { observer?.closedByClient(deviceId: connection.deviceId, exchange: connection.exchange) }
        connection.continuation.finish()
    }
}

/// A client's way onto the simulated network.
struct SimulatedTransport: ChatTransport {
    let world: World
    let network: SimulatedNetwork

    /// What crosses is told to the network's observer here, at the
    /// boundary: a request lost on the way (offline, `net fail`) too.
    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        guard let observer = network.observer else { return try await crossing(envelope) }
        // Called directly, not through a closure: another async frame would
        // change the order of the world's jobs, and with it the transcripts.
        let exchange = observer.request(envelope)
        do {
            return observer.answered(try await crossing(envelope), to: envelope, exchange: exchange)
        } catch {
            throw observer.failed(error, for: envelope, exchange: exchange)
        }
    }

    private func crossing(_ envelope: WireEnvelope) async throws -> WireResponse {
        try network.checkOnline()
        let fails = network.consumeFailure()
        try await world.sleep(for: network.oneWay(), kind: .inFlight)
        if fails { throw TransportError(.failed, "The connection was reset (net fail)") }
        try network.checkOnline()
        network.countRequest()
        let result = network.backend.handle(envelope)
        world.trace("net", "\(envelope.request.name) → \(Self.describe(result))")
        try await world.sleep(for: network.oneWay(), kind: .inFlight)
        try network.checkOnline()
        return try result.get()
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        guard let observer = network.observer else { return try await opening(request, exchange: 0) }
        let exchange = observer.opening(request)
        do {
            let connection = try await opening(request, exchange: exchange)
            observer.opened(.success(()), deviceId: request.deviceId, exchange: exchange)
            return connection
        } catch {
            observer.opened(.failure(error), deviceId: request.deviceId, exchange: exchange)
            throw error
        }
    }

    private func opening(_ request: RealtimeRequest, exchange: Int) async throws -> RealtimeConnection {
        try network.checkOnline()
        try await world.sleep(for: network.oneWay(), kind: .inFlight)
        try network.checkOnline()
        network.countRequest()
        let (id, stream) = network.open(deviceId: request.deviceId, exchange: exchange)
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
        try await world.sleep(for: network.oneWay(), kind: .inFlight)
        return RealtimeConnection(signals: stream, close: { network.close(id) })
    }

    func reachability() -> AsyncStream<Bool> {
        network.reachability()
    }

    var isReachable: Bool? { network.isOnline }

    static func describe(_ result: Result<WireResponse, WireError>) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error): error.code.rawValue
        }
    }
}
