import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization

/// The embedded world as a stage: everything in-process, on virtual time.
final class EmbeddedStage: Stage, Sendable {
    let world: World
    let server: any ServerSide
    var seed: UInt64 { world.seed }
    /// The world itself: a wrapper's extra async frames would change the
    /// order of jobs, and with it the transcripts.
    var clientRuntime: any TracingRuntime { world }
    var serverURL: String? { nil }
    var network: any NetworkControl { world.network.conditions }
    var interruption: Interruption { world.interruption }
    private let traffic = TrafficBuffer()

    /// What crosses the simulated network is recorded at its transport
    /// boundary (requests lost on the way too), with its faults, and the
    /// other side's calls, as against a server.
    init(seed: UInt64, interruption: Interruption) throws {
        let world = try World(seed: seed, interruption: interruption)
        self.world = world
        let traffic = self.traffic
        server = RecordingServerSide(
            EmbeddedServerSide(backend: world.backend, apiKey: World.apiKey), clock: world.clock,
            sink: { traffic.append($0) })
        let reporter = TrafficReporter(runtime: world, sink: { traffic.append($0) }, isCapturing: { traffic.isCapturing })
        world.network.observe(reporter)
        world.network.conditions.onFault { reporter.fault($0) }
    }

    func takeTraffic() -> [TrafficEntry] { traffic.take() }
    var capturesTraffic: Bool {
        get { traffic.isCapturing }
        set { traffic.isCapturing = newValue }
    }

    func makeTransport(deviceId: String) -> any ChatTransport { world.makeTransport(deviceId: deviceId) }

    var app: AppCredentials { .demo }
    func tokenIssuer(apiKey: String) -> SimulatedTokenProvider.Issuer {
        let backend = world.backend
        return .immediate { userId in try backend.issueTokens(apiKey: apiKey, userId: userId) }
    }
    func onTrace(_ sink: @escaping @Sendable (Instant, Trace) -> Void) { world.onTrace(sink) }
    func runUntilIdle() { world.runUntilIdle() }
    func settle() -> [String] { world.settle() }
    func step(until deadline: Instant) -> Bool { world.step(until: deadline) }
    func advance(by duration: Duration) throws(ScriptError) { world.advance(by: duration) }
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error>? { world.run(operation) }
    var pendingWakeUps: [(time: Instant, kind: WaitKind)] { world.scheduler.pending }

    // MARK: ChatRuntime

    var executor: any SerialExecutor & TaskExecutor { world.executor }
    var clock: TimeSource { world.clock }
    var random: RandomSource { world.random }
    func sleep(until deadline: Instant, kind: WaitKind) async throws { try await world.sleep(until: deadline, kind: kind) }
    func trace(_ trace: Trace) { world.trace(trace) }
}
