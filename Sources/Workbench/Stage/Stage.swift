import ChatCore
import ChatSDK
import ChatSimulation
import Synchronization

/// Where the workbench's clients live: the embedded world (virtual time,
/// simulated network, in-process backend) or a running `chatbench serve`
/// (real time, real sockets). The interpreter drives both the same way.
///
/// Whatever the stage, every SDK actor and task runs on the stage's
/// executor, which only the workbench's thread pumps: objects the
/// interpreter keeps are never touched concurrently.
protocol Stage: TracingRuntime {
    /// The runtime SDK clients get (the stage itself, or what it wraps).
    var clientRuntime: any TracingRuntime { get }
    /// Seed of the stage's random choices (client-side identifiers).
    var seed: UInt64 { get }
    /// Nil in the embedded world; the server's URL in server mode.
    var serverURL: String? { get }
    /// The server as the other side sees it.
    var server: any ServerSide { get }
    /// The app the workbench plays (``AppCredentials``).
    var app: AppCredentials { get }
    /// The network between the clients and the server, with its faults.
    var network: any NetworkControl { get }
    /// What stops a running command (Ctrl-C, or a replay's stop).
    var interruption: Interruption { get }
    /// A transport for a new client whose device is `deviceId`.
    func makeTransport(deviceId: String) -> any ChatTransport
    /// How the app's backend mints tokens for a user of app `apiKey` (what
    /// the workbench's token provider answers with).
    func tokenIssuer(apiKey: String) -> SimulatedTokenProvider.Issuer
    /// Where `trace` lines go.
    func onTrace(_ sink: @escaping @Sendable (Instant, Trace) -> Void)

    /// Runs until no work is in flight.
    func runUntilIdle()
    /// Runs until no work is in flight and no recovery is pending (or a
    /// limit is reached); returns what the recovery that ran was for.
    func settle() -> [String]
    /// Fires the next pending wake-up due at or before `deadline` and runs
    /// until idle; false when there is none.
    func step(until deadline: Instant) -> Bool
    /// Moves the clock forward by `duration`. Only the embedded world can.
    func advance(by duration: Duration) throws(ScriptError)
    /// Runs `operation` on the stage's executor until it ends or the stage
    /// is idle; nil when it is still waiting (for a timer).
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error>?
    /// Wake-ups waiting for their time, earliest first.
    var pendingWakeUps: [(time: Instant, kind: WaitKind)] { get }
    /// Runs `body` (a command, a completion) with the stage to itself: in
    /// server mode the clients keep running between commands, and stop
    /// while one runs.
    func exclusively<T>(_ body: () -> T) -> T
    /// Stops whatever runs in the background; the stage is not used after.
    func stop()
    /// What crossed the wire since the last call (server mode's traffic
    /// tape, SPEC W5); always empty in the embedded world.
    func takeTraffic() -> [TrafficEntry]
    /// Whether traffic is collected at all: off when nobody reads it.
    var capturesTraffic: Bool { get set }
}

extension EmbeddedStage {
    func exclusively<T>(_ body: () -> T) -> T { body() }
    func stop() { world.stop() }
}

/// Where a stage collects its traffic until a step takes it.
final class TrafficBuffer: Sendable {
    private let entries = Mutex<[TrafficEntry]>([])
    private let capturing = Atomic(true)
    /// Whether anyone reads what the buffer collects (see
    /// `WorkbenchSession.capturesTraffic`).
    var isCapturing: Bool {
        get { capturing.load(ordering: .relaxed) }
        set { capturing.store(newValue, ordering: .relaxed) }
    }
    /// Keeps `entry` while capturing (the network's reporter does not even
    /// build its entries then; the other side's few calls are dropped here).
    func append(_ entry: TrafficEntry) {
        guard isCapturing else { return }
        entries.withLock { $0.append(entry) }
    }
    func take() -> [TrafficEntry] {
        entries.withLock { s in
            defer { s = [] }
            return s
        }
    }
}

extension Stage {
    var isEmbedded: Bool { serverURL == nil }
}

/// The network between clients and server as `net …` verbs change it.
protocol NetworkControl: AnyObject, Sendable {
    var isOnline: Bool { get }
    var latency: Duration { get }
    var requestCount: Int { get }
    /// Requests that failed because the device was offline.
    var offlineFailures: Int { get }
    var openConnections: Int { get }
    var pendingFailures: Int { get }
    /// Where its changes and faults are reported (a stage records them).
    var conditions: NetworkConditions { get }
    /// The network's (`device` nil) or one device's link's.
    func setOnline(_ online: Bool, device: String?)
    func setLatency(_ latency: Duration, device: String?)
    func failNext(_ count: Int, kind: FailureKind, device: String?)
    func dropConnections(device: String?)
    func isOnline(device: String?) -> Bool
    func latency(device: String?) -> Duration
    func openConnections(device: String) -> Int
}

/// Both modes' networks are their conditions, applied by the one
/// ``FaultInjectingTransport``.
extension NetworkConditions: NetworkControl {
    var conditions: NetworkConditions { self }
}
