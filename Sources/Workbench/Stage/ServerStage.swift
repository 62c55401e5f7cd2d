import ChatCore
import ChatSDK
import ChatSDKNetwork
import ChatSimulation
import Foundation
import Synchronization

/// A running `chatbench serve` as a stage (SPEC W10, `--server URL`): the
/// clients talk to it over real sockets, on real time.
///
/// The SDK's actors and tasks still run on one executor that only the
/// workbench's thread pumps (``PumpedExecutor``): a command runs until no
/// request or stream opening is in flight and nothing has happened for a
/// short quiet window (answers and frames from the server arrive on other
/// threads and wake the pump). Between commands nothing runs: what the
/// server pushed meanwhile shows with the next command. Client-side
/// identifiers come from the seed, as in the embedded world.
final class ServerStage: Stage, Sendable {
    let seed: UInt64
    let app: AppCredentials
    let baseURL: String
    let server: any ServerSide
    private let recordingServer: RecordingServerSide
    private let traffic = TrafficBuffer()
    /// One tape recorder per device (an `app restart` makes a new client on the same device).
    private let recorders = Mutex<[String: TapeRecordingTransport]>([:])
    private let serverNetwork = ServerNetwork()
    private let pump = PumpedExecutor()
    /// Client-side ids: from the seed, tagged with this session's component
    /// (``DeviceIDTag``).
    let random: RandomSource
    private let traceSink = Mutex<(@Sendable (Instant, Trace) -> Void)?>(nil)
    private let timers = Mutex<(next: Int, deadlines: [Int: (time: Instant, kind: WaitKind)])>((0, [:]))
    /// How long nothing must happen for a command to be over.
    let quietWindow: Duration
    /// The longest a command waits for work in flight.
    let commandTimeout: Duration = .seconds(30)
    /// Held by whoever pumps: a command, or the background pump between commands.
    private let pumping = NSLock()
    private let stopped = Mutex(false)

    var serverURL: String? { baseURL }
    var clientRuntime: any TracingRuntime { self }
    var network: any NetworkControl { serverNetwork.conditions }
    /// What stops a command that waits for the clients (Ctrl-C).
    let interruption: Interruption

    /// Connects to the server at `url` and checks it answers as the demo
    /// app; throws a one-line reason when it does not.
    init(url: String, seed: UInt64, app: AppCredentials = .demo, quietWindow: Duration = .milliseconds(50), interruption: Interruption)
        throws
    {
        self.interruption = interruption
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        guard let parsed = URL(string: base), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw ScriptError(.badValue, "--server needs a URL like http://127.0.0.1:8080, got \"\(url)\"")
        }
        self.seed = seed
        baseURL = base
        random = RandomSource(seed: seed, idTag: DeviceIDTag.random())
        self.quietWindow = quietWindow
        self.app = app
        let http = HTTPServerSide(baseURL: base, apiKey: app.apiKey, secret: app.secret)
        do {
            _ = try http.settings()
        } catch let error as WireError where [.invalidApiKey, .invalidAppSecret].contains(error.code) {
            throw ScriptError(.server, "cannot use the server at \(base) as app \(app.apiKey): \(error.message)")
        } catch {
            throw ScriptError(.server, "cannot use the server at \(base): \(error) (is `chatbench serve` running there?)")
        }
        let traffic = self.traffic
        recordingServer = RecordingServerSide(http, clock: .system, sink: { traffic.append($0) })
        server = recordingServer
        let faults = TrafficReporter(runtime: self, sink: { traffic.append($0) }, isCapturing: { traffic.isCapturing })
        serverNetwork.conditions.onFault { faults.fault($0) }
        startBackgroundPump()
    }

    /// Between commands the clients keep running (timers fire, frames
    /// arrive, connections come back); what they log shows with the next
    /// command.
    private func startBackgroundPump() {
        let thread = Thread { [weak self] in
            while let self, !self.stopped.withLock({ $0 }) {
                self.pumping.lock()
                self.pump.drain()
                self.pumping.unlock()
                _ = self.pump.waitForWork(until: Date() + 0.2)
            }
        }
        thread.name = "chatbench.pump"
        thread.start()
    }

    func exclusively<T>(_ body: () -> T) -> T {
        pumping.lock()
        defer { pumping.unlock() }
        return body()
    }

    func stop() { stopped.withLock { $0 = true } }

    /// The real transport, recorded onto the tape below the faults (a
    /// replay from the tape puts the same faults back above it).
    func makeTransport(deviceId: String) -> any ChatTransport {
        let traffic = self.traffic
        let recorder = recorders.withLock { recorders in
            if let existing = recorders[deviceId] { return existing }
            let recorder = TapeRecordingTransport(wrapping: HTTPTransport(baseURL: baseURL), runtime: self, sink: { traffic.append($0) })
            recorders[deviceId] = recorder
            return recorder
        }
        return serverNetwork.transport(over: recorder, runtime: self, deviceId: deviceId)
    }

    func tokenIssuer(apiKey: String) -> SimulatedTokenProvider.Issuer {
        let app = AppBackendClient(baseURL: baseURL, apiKey: apiKey, secret: apiKey == self.app.apiKey ? self.app.secret : World.jwtSecret)
        let recording = recordingServer
        let network = serverNetwork
        return .remote { userId in
            // The app's backend answering is work in flight: a command waits
            // for it rather than for a quiet moment (on a loaded machine the
            // request took longer than the quiet window, and the step ended
            // before its send had even signed in).
            network.beginWork()
            defer { network.endWork() }
            return try await recording.recordAsync(.issueTokens(userId: userId)) { try await app.issueTokenPair(userId: userId) }
        }
    }

    func takeTraffic() -> [TrafficEntry] { traffic.take() }
    var capturesTraffic: Bool {
        get { traffic.isCapturing }
        set { traffic.isCapturing = newValue }
    }

    func onTrace(_ sink: @escaping @Sendable (Instant, Trace) -> Void) { traceSink.withLock { $0 = sink } }

    // MARK: Running

    func runUntilIdle() { pumpUntilQuiet(until: nil) }

    private func pumpUntilQuiet(until done: (() -> Bool)?) {
        let hardDeadline = Date() + commandTimeout.timeInterval
        var quietSince = Date()
        while !interruption.isRequested {
            if pump.drain() > 0 { quietSince = Date() }
            if let done, done() { return }
            let now = Date()
            if now >= hardDeadline { return }
            if serverNetwork.workInFlight > 0 {
                if pump.waitForWork(until: min(hardDeadline, now + 0.5)) { quietSince = Date() }
                continue
            }
            let quietEnd = quietSince + quietWindow.timeInterval
            if now >= quietEnd { return }
            if !pump.waitForWork(until: quietEnd) { return }
        }
    }

    /// Waits for the next timer when one is due by `deadline` (at most a
    /// minute of real time ahead), then runs until idle.
    func step(until deadline: Instant) -> Bool { step(limit: min(deadline - now, .seconds(60))) }

    private func step(limit: Duration) -> Bool {
        runUntilIdle()
        guard let next = nextTimer, next <= now + limit else { return false }
        let deadline = Date(timeIntervalSince1970: Double(next.milliseconds) / 1000 + 1)
        while pump.drain() == 0, Date() < deadline { _ = pump.waitForWork(until: deadline) }
        runUntilIdle()
        return true
    }

    /// Runs until no timer is due within five seconds (time is real here,
    /// and timers of every kind fire as it passes).
    func settle() -> [String] {
        let limit = now + .seconds(5)
        runUntilIdle()
        while let next = nextTimer, next <= limit, step(limit: limit - now) {}
        return []
    }

    func advance(by duration: Duration) throws(ScriptError) { throw Self.clockAdvanceRefusal }

    static let clockAdvanceRefusal = ScriptError(
        .needsEmbeddedWorld,
        "clock advance needs the embedded world's virtual time; against a server time is real: use wait or settle")

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error>? {
        let box = ResultBox<T>()
        spawn {
            do { box.set(.success(try await operation())) } catch { box.set(.failure(error)) }
        }
        pumpUntilQuiet(until: { box.value != nil })
        runUntilIdle()
        return box.value
    }

    var pendingWakeUps: [(time: Instant, kind: WaitKind)] {
        timers.withLock { $0.deadlines.sorted { ($0.value.time, $0.key) < ($1.value.time, $1.key) }.map(\.value) }
    }
    private var nextTimer: Instant? { timers.withLock { $0.deadlines.values.map(\.time).min() } }

    // MARK: ChatRuntime

    var executor: any SerialExecutor & TaskExecutor { pump }

    let clock = TimeSource.system

    /// Against a server the client's clock is the wall clock: its flight
    /// recorder measures time on the continuous one.
    let monotonicClock = TimeSource.monotonic

    func sleep(until deadline: Instant, kind: WaitKind) async throws {
        let timer: Int? =
            switch kind.category {
            case .inFlight:
                {
                    serverNetwork.beginWork()
                    return nil
                }()
            case .recovery, .lifecycle:
                timers.withLock { t in
                    t.next += 1
                    t.deadlines[t.next] = (deadline, kind)
                    return t.next
                }
            }
        defer {
            if let timer { _ = timers.withLock { $0.deadlines.removeValue(forKey: timer) } } else { serverNetwork.endWork() }
        }
        try await TimeSource.sleepOnSystemClock(until: deadline)
    }

    func trace(_ trace: Trace) {
        let sink = traceSink.withLock { $0 }
        sink?(now, trace)
    }
}

/// Where an operation run on the pump leaves its result.
private final class ResultBox<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    var value: Result<T, any Error>? { result.withLock { $0 } }
    func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }
}
