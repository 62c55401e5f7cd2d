import ChatCore
import ChatBackend
import ChatSDK
import Synchronization

/// The in-process network between SDK clients and the backend: latency,
/// offline, injected failures, and realtime connections that can be cut.
public final class SimulatedNetwork: Sendable {
    struct Connection {
        var continuation: AsyncStream<RealtimeSignal>.Continuation
        var subscription: SubscriptionID?
        var lastDelivery: Instant
    }

    struct State {
        var connections: [Int: Connection] = [:]
        var nextConnection = 0
    }

    private let state = Mutex(State())
    /// Online, latency, failures to come, requests so far.
    public let conditions = NetworkConditions(latency: .milliseconds(20))
    private let scheduler: Scheduler
    private let random: RandomSource
    let backend: Backend

    init(scheduler: Scheduler, random: RandomSource, backend: Backend) {
        self.scheduler = scheduler
        self.random = random
        self.backend = backend
    }

    // MARK: Faults

    public var isOnline: Bool { conditions.isOnline }
    public var latency: Duration { conditions.latency }
    /// Requests that reached the backend so far.
    public var requestCount: Int { conditions.requestCount }
    public var openConnections: Int { state.withLock { $0.connections.count } }
    public var pendingFailures: Int { conditions.pendingFailures }

    /// Going offline cuts every realtime connection (no word from the
    /// server reaches the client: it just ends); requests fail at once.
    public func setOnline(_ online: Bool) {
        conditions.setOnline(online) { if !online { dropAll(reason: nil) } }
    }

    /// Reachability as a device sees it: the current value, then changes.
    func reachability() -> AsyncStream<Bool> { conditions.reachability() }

    public func setLatency(_ latency: Duration) { conditions.setLatency(latency) }

    /// The next `count` requests fail on the way.
    public func failNext(_ count: Int) { conditions.failNext(count) }

    /// Cuts every realtime connection: the server side hangs up saying
    /// `reason`, or (nil) the connection just dies with the network.
    public func dropAll(reason: String? = "connection dropped") {
        let dropped = state.withLock { s -> [Connection] in
            defer { s.connections = [:] }
            return s.connections.keys.sorted().compactMap { s.connections[$0] }
        }
        for connection in dropped {
            if let subscription = connection.subscription { backend.unsubscribe(subscription) }
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

    func open() -> (Int, AsyncStream<RealtimeSignal>) {
        let (stream, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let id = state.withLock { s in
            let id = s.nextConnection
            s.nextConnection += 1
            s.connections[id] = Connection(continuation: continuation, subscription: nil, lastDelivery: scheduler.now)
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
            let continuation = state.withLock { $0.connections[id]?.continuation }
            continuation?.yield(.event(event))
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
            connection.continuation.yield(.closed(reason: reason))
            connection.continuation.finish()
        }
    }

    /// Closes a connection from the client's side.
    func close(_ id: Int) {
        let connection = state.withLock { $0.connections.removeValue(forKey: id) }
        guard let connection else { return }
        if let subscription = connection.subscription { backend.unsubscribe(subscription) }
        connection.continuation.finish()
    }
}

/// A client's way onto the simulated network.
struct SimulatedTransport: ChatTransport {
    let world: World
    let network: SimulatedNetwork

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
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
        try network.checkOnline()
        try await world.sleep(for: network.oneWay(), kind: .inFlight)
        try network.checkOnline()
        network.countRequest()
        let (id, stream) = network.open()
        let network = self.network
        let result = network.backend.subscribe(
            apiKey: request.apiKey, accessToken: request.accessToken, afterUserSeq: request.afterUserSeq,
            sink: { event in network.deliver(event, to: id) },
            onClose: { error in network.closeFromServer(id, reason: error.message) })
        switch result {
        case .failure(let error):
            network.close(id)
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
