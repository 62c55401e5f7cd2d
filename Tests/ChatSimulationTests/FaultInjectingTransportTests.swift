import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization
import Testing

/// The one fault-injecting transport, a test per fault, in both of the
/// modes it serves: the embedded world's (jittered latency both ways, in
/// front of the backend) and server mode's (the added latency before each
/// request, in front of a real transport, here a stub on the world's clock).
@Suite struct FaultInjectingTransportTests {
    /// A transport that answers at once and counts what reaches it.
    final class Stub: ChatTransport, Sendable {
        let requests = Mutex(0)
        func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
            requests.withLock { $0 += 1 }
            return .ok
        }
        func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
            RealtimeConnection(signals: AsyncStream { _ in }, close: {})
        }
    }

    static let envelope = WireEnvelope(
        apiKey: World.apiKey, accessToken: nil, deviceId: "device-1", request: .listConversations(cursor: nil, limit: 10))

    /// What a server-mode transport reports lost.
    final class Lost: Sendable {
        let names = Mutex<[String]>([])
        var all: [String] { names.withLock { $0 } }
    }

    /// Runs `operation` in `world` to its end; returns how it ended and the
    /// virtual time it took.
    func timed(_ world: World, _ operation: @escaping @Sendable () async throws -> Void) -> (Result<Void, any Error>, Duration) {
        let start = world.now
        let result = world.run(operation) ?? .failure(CancellationError())
        return (result, world.now - start)
    }

    func transportError(_ result: Result<Void, any Error>) -> TransportError? {
        if case .failure(let error as TransportError) = result { return error }
        return nil
    }

    // MARK: Server mode: the faults in front of a real transport

    func serverMode(_ world: World, lost: Lost? = nil) -> (FaultInjectingTransport, NetworkConditions, Stub) {
        let conditions = NetworkConditions(latency: .zero)
        let stub = Stub()
        let transport = FaultInjectingTransport(
            over: stub, conditions: conditions, runtime: world, latency: .added(by: conditions),
            onLost: { envelope in lost?.names.withLock { $0.append(envelope.request.name) } })
        return (transport, conditions, stub)
    }

    @Test func serverModeOfflineFailsAtOnceWithoutReachingTheServer() throws {
        let world = try World(seed: 1)
        let (transport, conditions, stub) = serverMode(world)
        conditions.setOnline(false)
        let (result, took) = timed(world) { _ = try await transport.perform(Self.envelope) }
        #expect(transportError(result)?.kind == .offline)
        #expect(took == .zero && stub.requests.withLock { $0 } == 0 && conditions.requestCount == 0)
        let (opening, _) = timed(world) {
            _ = try await transport.openRealtime(RealtimeRequest(apiKey: "k", accessToken: "t", deviceId: "d", afterUserSeq: nil))
        }
        #expect(transportError(opening)?.kind == .offline)
    }

    @Test func serverModeFailNextLosesThatManyRequestsAndReportsThem() throws {
        let world = try World(seed: 1)
        let lost = Lost()
        let (transport, conditions, stub) = serverMode(world, lost: lost)
        conditions.failNext(2)
        let results = (0..<3).map { _ in timed(world) { _ = try await transport.perform(Self.envelope) }.0 }
        #expect(results.map { transportError($0)?.kind } == [TransportError.Kind.reset, .reset, nil])
        #expect(lost.all == ["listConversations", "listConversations"])
        #expect(stub.requests.withLock { $0 } == 1 && conditions.requestCount == 1 && conditions.pendingFailures == 0)
    }

    @Test func serverModeLatencyIsAddedBeforeEachRequestOnly() throws {
        let world = try World(seed: 1)
        let (transport, conditions, _) = serverMode(world)
        #expect(timed(world) { _ = try await transport.perform(Self.envelope) }.1 == .zero)
        conditions.setLatency(.milliseconds(300))
        #expect(timed(world) { _ = try await transport.perform(Self.envelope) }.1 == .milliseconds(300))
        let opening = RealtimeRequest(apiKey: "k", accessToken: "t", deviceId: "d", afterUserSeq: nil)
        #expect(timed(world) { _ = try await transport.openRealtime(opening) }.1 == .milliseconds(300))
    }

    @Test func theConditionsCutWhatIsRegisteredOldestFirst() {
        let conditions = NetworkConditions(latency: .zero)
        let cuts = Mutex<[String]>([])
        for name in ["a", "b", "c"] {
            _ = conditions.register { id, reason in cuts.withLock { $0.append("\(name)\(id) \(reason ?? "offline")") } }
        }
        conditions.unregister(1)
        #expect(conditions.openConnections == 2)
        conditions.dropConnections()
        #expect(cuts.withLock { $0 } == ["a0 connection dropped", "c2 connection dropped"])
        _ = conditions.register { id, reason in cuts.withLock { $0.append("d\(id) \(reason ?? "offline")") } }
        conditions.setOnline(false)
        #expect(cuts.withLock { $0 }.last == "d3 offline")
        #expect(conditions.openConnections == 0)
    }

    // MARK: The embedded world: the faults in front of the backend

    func signedIn(_ world: World) throws -> (any ChatTransport, WireEnvelope, RealtimeRequest) {
        let tokens = try world.backend.issueTokens(apiKey: World.apiKey, userId: "alice")
        let envelope = WireEnvelope(
            apiKey: World.apiKey, accessToken: tokens.accessToken, deviceId: "device-1",
            request: .listConversations(cursor: nil, limit: 10))
        let opening = RealtimeRequest(apiKey: World.apiKey, accessToken: tokens.accessToken, deviceId: "device-1", afterUserSeq: nil)
        return (world.makeTransport(), envelope, opening)
    }

    @Test func embeddedOfflineFailsAtOnce() throws {
        let world = try World(seed: 1)
        let (transport, envelope, opening) = try signedIn(world)
        world.network.setOnline(false)
        let (result, took) = timed(world) { _ = try await transport.perform(envelope) }
        #expect(transportError(result)?.kind == .offline && took == .zero && world.network.requestCount == 0)
        #expect(transportError(timed(world) { _ = try await transport.openRealtime(opening) }.0)?.kind == .offline)
    }

    @Test func embeddedFailNextLosesTheRequestAfterItsWayThere() throws {
        let world = try World(seed: 1)
        let (transport, envelope, _) = try signedIn(world)
        world.network.failNext(1)
        let (lost, tookLost) = timed(world) { _ = try await transport.perform(envelope) }
        #expect(transportError(lost)?.kind == .reset && world.network.requestCount == 0)
        #expect(tookLost >= .milliseconds(20) && tookLost <= .milliseconds(25), "one leg: 20 ms and up to a quarter of jitter")
        let (answered, _) = timed(world) { _ = try await transport.perform(envelope) }
        #expect((try? answered.get()) != nil && world.network.requestCount == 1)
    }

    /// D7: `net fail --kind` makes the failures a real transport makes, each
    /// of the kind the SDK classifies, each where it happens: refused and
    /// offline at once, reset on the way there, 503 there and back without
    /// the server doing it, timeout after the server did it.
    @Test func embeddedFailNextOfEachKind() throws {
        let world = try World(seed: 1)
        let (transport, envelope, _) = try signedIn(world)
        var outcomes: [String] = []
        for kind in FailureKind.allCases {
            world.network.failNext(1, kind: kind)
            let before = world.network.requestCount
            let (result, took) = timed(world) { _ = try await transport.perform(envelope) }
            let error = transportError(result)
            #expect(error?.kind.isRetryable == true)
            outcomes.append(
                "\(kind.rawValue): \(error?.kind.rawValue ?? "ok") after \(took.wholeMilliseconds / 10 * 10)ms, done \(world.network.requestCount - before)"
            )
        }
        #expect(
            outcomes == [
                "reset: reset after 20ms, done 0", "refused: refused after 0ms, done 0", "timeout: timeout after 5020ms, done 1",
                "503: unavailable after 40ms, done 0", "offline: offline after 0ms, done 0",
            ])
        #expect(world.network.isOnline, "offline for one request is not the network going offline")
    }

    @Test func embeddedLatencyIsPaidThereAndBack() throws {
        let world = try World(seed: 1)
        let (transport, envelope, opening) = try signedIn(world)
        world.network.setLatency(.milliseconds(200))
        let (_, took) = timed(world) { _ = try await transport.perform(envelope) }
        #expect(took >= .milliseconds(400) && took <= .milliseconds(500), "two legs of 200 ms, each with up to 50 ms of jitter")
        let (_, tookOpening) = timed(world) { _ = try await transport.openRealtime(opening) }
        #expect(tookOpening >= .milliseconds(400) && tookOpening <= .milliseconds(500))
    }

    @Test func embeddedCutsEndTheStreamsWithOrWithoutAReason() throws {
        let world = try World(seed: 1)
        let (transport, _, opening) = try signedIn(world)
        let first = try #require(try world.run { try await transport.openRealtime(opening) }?.get())
        #expect(world.network.openConnections == 1)
        world.network.conditions.dropConnections()
        #expect(world.network.openConnections == 0)
        let dropped = world.run { await first.signals.reduce(into: [RealtimeSignal]()) { $0.append($1) } }
        #expect(try dropped?.get().last == .closed(reason: "connection dropped", by: .network))

        let second = try #require(try world.run { try await transport.openRealtime(opening) }?.get())
        world.network.setOnline(false)
        #expect(world.network.openConnections == 0)
        let died = world.run { await second.signals.reduce(into: [RealtimeSignal]()) { $0.append($1) } }
        let signals = try #require(try died?.get())
        #expect(
            !signals.contains { if case .closed = $0 { true } else { false } }, "a connection that dies with the network hears no reason")
    }
}
