import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization

/// The network of server mode as `net …` verbs change it: the one
/// ``FaultInjectingTransport`` in front of each client's real transport
/// (SPEC W10), on these conditions. Offline, a request fails at once and
/// the event streams are cut; `net fail N` fails the next N requests on the
/// way; `net latency D` adds D before each request; `net drop` cuts the
/// event streams, as if the server hung up.
///
/// It also counts the work in flight (requests, stream openings, in-flight
/// waits), which tells the stage when a command has finished.
final class ServerNetwork: Sendable {
    private let inFlight = Mutex(0)
    /// Online, added latency, failures to come, requests so far, streams to cut.
    let conditions = NetworkConditions(latency: .zero)

    /// Requests, openings and in-flight waits not finished yet.
    var workInFlight: Int { inFlight.withLock { $0 } }
    func beginWork() { inFlight.withLock { $0 += 1 } }
    func endWork() { inFlight.withLock { $0 -= 1 } }

    /// A client's transport: `inner` (the real one, or a tape) behind the
    /// faults, its work counted.
    func transport(over inner: any ChatTransport, runtime: any TracingRuntime, deviceId: String? = nil) -> any ChatTransport {
        let conditions = conditions
        let faults = FaultInjectingTransport(
            over: CuttableTransport(inner: inner, conditions: conditions, runtime: runtime), conditions: conditions,
            runtime: runtime, latency: .added(by: conditions), deviceId: deviceId,
            onLost: { envelope in
                // Lost above the tape: the network's rows keep it.
                conditions.report(.lost(request: envelope.request.name, device: envelope.deviceId))
            })
        return CountedTransport(faults: faults, network: self)
    }
}

/// Counts a client's requests and openings as work in flight.
private struct CountedTransport: ChatTransport {
    let faults: FaultInjectingTransport
    let network: ServerNetwork

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        network.beginWork()
        defer { network.endWork() }
        return try await faults.perform(envelope)
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        network.beginWork()
        defer { network.endWork() }
        return try await faults.openRealtime(request)
    }

    func reachability() -> AsyncStream<Bool> { faults.reachability() }

    var isReachable: Bool? { faults.isReachable }
}

/// A real transport whose event streams the network can cut: our own
/// stream in front of the real one, so that a cut says what cut it (as the
/// embedded network does) and ends at once.
private struct CuttableTransport: ChatTransport {
    let inner: any ChatTransport
    let conditions: NetworkConditions
    let runtime: any TracingRuntime

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        try await inner.perform(envelope)
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        let connection = try await inner.openRealtime(request)
        let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
        let conditions = conditions
        let id = conditions.register(device: request.deviceId) { _, reason in
            if let reason { continuation.yield(.closed(reason: reason, by: .network)) }
            continuation.finish()
            connection.close()
        }
        // On the stage's executor: against a tape it is the virtual world's,
        // and the hop must be part of the work the world runs.
        let forward = runtime.spawn {
            for await signal in connection.signals {
                if case .closed = signal { conditions.unregister(id) }
                continuation.yield(signal)
            }
            continuation.finish()
        }
        // The network went offline while the real stream opened.
        do { try conditions.checkOnline(device: request.deviceId) } catch {
            conditions.unregister(id)
            forward.cancel()
            connection.close()
            throw error
        }
        return RealtimeConnection(
            signals: signals,
            close: {
                conditions.unregister(id)
                forward.cancel()
                continuation.finish()
                connection.close()
            })
    }
}
