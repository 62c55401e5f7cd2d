import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization

/// The network of server mode as `net …` verbs change it: a fault-injecting
/// layer in front of each client's real transport (SPEC W10). Offline, a
/// request fails at once and the event streams are cut; `net fail N` fails
/// the next N requests on the way; `net latency D` adds D before each
/// request; `net drop` cuts the event streams, as if the server hung up.
///
/// It also counts the work in flight (requests, stream openings, in-flight
/// waits), which tells the stage when a command has finished.
final class ServerNetwork: NetworkControl {
    private struct State {
        var inFlight = 0
        var connections: [Int: @Sendable (String?) -> Void] = [:]
        var nextConnection = 0
    }

    private let state = Mutex(State())
    /// Online, added latency, failures to come, requests so far.
    let conditions = NetworkConditions(latency: .zero)

    var isOnline: Bool { conditions.isOnline }
    var latency: Duration { conditions.latency }
    var requestCount: Int { conditions.requestCount }
    var openConnections: Int { state.withLock { $0.connections.count } }
    var pendingFailures: Int { conditions.pendingFailures }
    /// Requests, openings and in-flight waits not finished yet.
    var workInFlight: Int { state.withLock { $0.inFlight } }

    func setOnline(_ online: Bool) {
        conditions.setOnline(online) { if !online { cut(reason: nil) } }
    }

    func setLatency(_ latency: Duration) { conditions.setLatency(latency) }
    func failNext(_ count: Int) { conditions.failNext(count) }
    func dropConnections() {
        conditions.report("drop")
        cut(reason: "connection dropped")
    }

    /// Cuts every connection: with a reason, as the server hanging up;
    /// with none, as a connection dying with the network.
    private func cut(reason: String?) {
        let closers = state.withLock { s -> [@Sendable (String?) -> Void] in
            defer { s.connections = [:] }
            return s.connections.keys.sorted().compactMap { s.connections[$0] }
        }
        for close in closers { close(reason) }
    }

    // MARK: For the transport

    func beginWork() { state.withLock { $0.inFlight += 1 } }
    func endWork() { state.withLock { $0.inFlight -= 1 } }
    func checkOnline() throws { try conditions.checkOnline() }
    func consumeFailure() -> Bool { conditions.consumeFailure() }
    func countRequest() { conditions.countRequest() }

    func register(close: @escaping @Sendable (String?) -> Void) -> Int {
        state.withLock { s in
            let id = s.nextConnection
            s.nextConnection += 1
            s.connections[id] = close
            return id
        }
    }

    func unregister(_ id: Int) { _ = state.withLock { $0.connections.removeValue(forKey: id) } }

    func reachability() -> AsyncStream<Bool> { conditions.reachability() }
}

/// A client's transport in server mode: the real one behind the faults of
/// the ``ServerNetwork``.
struct FaultInjectingTransport: ChatTransport {
    let inner: any ChatTransport
    let network: ServerNetwork
    let runtime: any TracingRuntime

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        network.beginWork()
        defer { network.endWork() }
        try network.checkOnline()
        let latency = network.latency
        if latency > .zero { try await runtime.sleep(for: latency, kind: .inFlight) }
        if network.consumeFailure() {
            // Lost above the tape: the network's rows keep it.
            network.conditions.report("lost \(envelope.request.name) from \(envelope.deviceId)")
            throw TransportError(.failed, "The connection was reset (net fail)")
        }
        try network.checkOnline()
        network.countRequest()
        let result: Result<WireResponse, any Error>
        do { result = .success(try await inner.perform(envelope)) } catch { result = .failure(error) }
        runtime.trace("net", "\(envelope.request.name) → \(Self.describe(result))")
        try network.checkOnline()
        return try result.get()
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        network.beginWork()
        defer { network.endWork() }
        try network.checkOnline()
        let latency = network.latency
        if latency > .zero { try await runtime.sleep(for: latency, kind: .inFlight) }
        try network.checkOnline()
        network.countRequest()
        let connection = try await inner.openRealtime(request)
        // Our own stream in front of the real one, so that a cut says what
        // cut it (as the embedded network does) and ends at once.
        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let network = self.network
        let id = network.register { reason in
            if let reason { continuation.yield(.closed(reason: reason)) }
            continuation.finish()
            connection.close()
        }
        // On the stage's executor: against a tape it is the virtual world's,
        // and the hop must be part of the work the world runs.
        let forward = runtime.spawn {
            for await signal in connection.signals {
                if case .closed = signal { network.unregister(id) }
                continuation.yield(signal)
            }
            continuation.finish()
        }
        do { try network.checkOnline() } catch {
            network.unregister(id)
            forward.cancel()
            connection.close()
            throw error
        }
        return RealtimeConnection(
            signals: signals,
            close: {
                network.unregister(id)
                forward.cancel()
                continuation.finish()
                connection.close()
            })
    }

    func reachability() -> AsyncStream<Bool> { network.reachability() }

    var isReachable: Bool? { network.isOnline }

    static func describe(_ result: Result<WireResponse, any Error>) -> String {
        switch result {
        case .success: "ok"
        case .failure(let error as WireError): error.code.rawValue
        case .failure(let error as TransportError): error.kind == .offline ? "offline" : "failed"
        case .failure: "failed"
        }
    }
}
