import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization
import Testing

@testable import Workbench

/// Server mode's network: the one fault-injecting transport in front of a
/// real transport (here a stub whose stream stays open, on the world's
/// clock), with its streams made cuttable and its work counted.
@Suite struct ServerNetworkTests {
    /// A real transport's stand-in: answers at once; its event stream stays
    /// open until closed, and it counts what reaches it.
    final class Server: ChatTransport, Sendable {
        let requests = Mutex(0)
        let closes = Mutex(0)
        func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
            requests.withLock { $0 += 1 }
            return .ok
        }
        func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
            let (signals, continuation) = AsyncStream<RealtimeSignal>.makeStream()
            return RealtimeConnection(
                signals: signals,
                close: { [self] in
                    closes.withLock { $0 += 1 }
                    continuation.finish()
                })
        }
    }

    /// What the network reports, as the stage's traffic rows get it.
    final class Reports: Sendable {
        let lines = Mutex<[TrafficEntry.Fault]>([])
        var all: [TrafficEntry.Fault] { lines.withLock { $0 } }
    }

    static let envelope = WireEnvelope(
        apiKey: World.apiKey, accessToken: nil, deviceId: "device-1", request: .listConversations(cursor: nil, limit: 10))
    static let opening = RealtimeRequest(apiKey: World.apiKey, accessToken: "t", deviceId: "device-1", afterUserSeq: nil)

    func setUp() throws -> (World, ServerNetwork, Server, any ChatTransport, Reports) {
        let world = try World(seed: 1)
        let network = ServerNetwork()
        let server = Server()
        let reports = Reports()
        network.conditions.onFault { fault in reports.lines.withLock { $0.append(fault) } }
        return (world, network, server, network.transport(over: server, runtime: world), reports)
    }

    func kind(_ result: Result<WireResponse, any Error>?) -> TransportError.Kind? {
        if case .failure(let error as TransportError)? = result { return error.kind }
        return nil
    }

    @Test func offlineFailsAtOnceAndCutsTheStreamsWithoutAReason() throws {
        let (world, network, server, transport, _) = try setUp()
        let connection = try #require(try world.run { try await transport.openRealtime(Self.opening) }?.get())
        #expect(network.conditions.openConnections == 1)
        network.conditions.setOnline(false)
        #expect(network.conditions.openConnections == 0 && server.closes.withLock { $0 } == 1)
        let signals = world.run { await connection.signals.reduce(into: [RealtimeSignal]()) { $0.append($1) } }
        #expect(try signals?.get() == [])
        #expect(kind(world.run { try await transport.perform(Self.envelope) }) == .offline)
        #expect(server.requests.withLock { $0 } == 0 && network.workInFlight == 0)
    }

    @Test func failNextLosesTheRequestAboveTheServerAndReportsIt() throws {
        let (world, network, server, transport, reports) = try setUp()
        network.conditions.failNext(1)
        #expect(kind(world.run { try await transport.perform(Self.envelope) }) == .reset)
        #expect(kind(world.run { try await transport.perform(Self.envelope) }) == nil)
        #expect(server.requests.withLock { $0 } == 1 && network.conditions.requestCount == 1)
        #expect(reports.all == [.failNext(count: 1, kind: nil, device: nil), .lost(request: "listConversations", device: "device-1")])
    }

    @Test func latencyIsAddedBeforeEachRequest() throws {
        let (world, network, _, transport, _) = try setUp()
        network.conditions.setLatency(.milliseconds(250))
        let start = world.now
        _ = world.run { try await transport.perform(Self.envelope) }
        #expect(world.now - start == .milliseconds(250))
        #expect(network.workInFlight == 0)
    }

    @Test func dropCutsTheStreamsAsTheServerHangingUp() throws {
        let (world, network, server, transport, reports) = try setUp()
        let connection = try #require(try world.run { try await transport.openRealtime(Self.opening) }?.get())
        network.conditions.dropConnections()
        let signals = world.run { await connection.signals.reduce(into: [RealtimeSignal]()) { $0.append($1) } }
        #expect(try signals?.get() == [.closed(reason: "connection dropped", by: .network)])
        #expect(server.closes.withLock { $0 } == 1 && reports.all == [.drop(device: nil)])
    }
}
