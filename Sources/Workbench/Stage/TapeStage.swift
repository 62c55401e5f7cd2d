import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

/// A server-mode session replayed from its traffic tape, with the server
/// stopped (SPEC W7, `replay --tape`): every request is answered from the
/// tape (``TapeTransport``), every call of the other side too
/// (``TapeServerSide``), on the recorded clock: the stage's clock is a
/// virtual one that each step starts at the step's recorded start, and that
/// answers and frames move to their recorded times. Client-side ids come
/// from the seed and the component found on the tape, as they did against
/// the server.
final class TapeStage: Stage, Sendable {
    let world: World
    var interruption: Interruption { world.interruption }
    let tape: TapeTransport
    let tapeServer: TapeServerSide
    let seed: UInt64
    private let recordedURL: String
    /// Client-side ids: from the seed, tagged with the recorded session's
    /// component (``DeviceIDTag``).
    let random: RandomSource
    private let serverNetwork = ServerNetwork()

    init(seed: UInt64, serverURL: String, source: TapeSource, interruption: Interruption) throws {
        self.seed = seed
        recordedURL = serverURL
        random = RandomSource(seed: seed, idTag: source.idTag)
        world = try World(seed: seed, start: source.start, interruption: interruption)
        let clientTraffic = source.traffic.filter { $0.entry.deviceId != nil }
        tape = TapeTransport(tape: Self.betweenCommandsFirst(clientTraffic, stepStarts: source.stepStarts), runtime: world)
        tapeServer = TapeServerSide(label: serverURL, entries: source.traffic.map(\.entry))
    }

    /// Against a server the clients run between commands too, and what
    /// crossed then was recorded with the next step. It happened before that
    /// step's command, so the replay gives it the step before: it is
    /// delivered, at its recorded time, before the command runs.
    static func betweenCommandsFirst(_ traffic: [RecordedTraffic], stepStarts: [Int: Instant]) -> [RecordedTraffic] {
        traffic.map { row in
            guard let step = row.step, step > 1, let start = stepStarts[step], row.entry.time < start else { return row }
            var row = row
            row.step = step - 1
            return row
        }
    }

    /// Step `number` starts at `time` (its recorded start): timers due
    /// before it fire, and its frames may come.
    func beginStep(_ number: Int, at time: Instant) {
        if time > world.now { world.advance(by: time - world.now) }
        tape.beginStep(number)
        tapeServer.beginStep(number)
    }

    /// Where the SDK's requests or the other side's calls differed from the tape.
    var divergences: [TapeDivergence] { tape.divergences + tapeServer.divergences }
    /// What the tape has that the replay never asked for.
    var unused: [String] {
        tape.unusedEntries.filter { $0.entry.direction == .out }.map {
            "step \($0.step.map(String.init) ?? "-") \($0.entry.origin.label): \($0.entry.summary)"
        }
            + tapeServer.unusedCalls.map { "\(TrafficEntry.Origin.otherSide.label): \($0)" }
    }

    var serverURL: String? { recordedURL }
    var server: any ServerSide { tapeServer }
    var network: any NetworkControl { serverNetwork.conditions }
    var clientRuntime: any TracingRuntime { self }

    func makeTransport(deviceId: String) -> any ChatTransport {
        serverNetwork.transport(over: tape, runtime: self, deviceId: deviceId)
    }

    /// The demo app's: a tape answers for the app the session played.
    var app: AppCredentials { .demo }

    func tokenIssuer(apiKey: String) -> SimulatedTokenProvider.Issuer {
        let server = tapeServer
        return .immediate { userId in try server.answer(.issueTokens(userId: userId)) }
    }

    func onTrace(_ sink: @escaping @Sendable (Instant, Trace) -> Void) { world.onTrace(sink) }
    func runUntilIdle() { world.runUntilIdle() }
    /// As against the server: timers due within five seconds, whatever
    /// their kind (the recorded session ran on real time).
    func settle() -> [String] {
        let limit = now + .seconds(5)
        world.runUntilIdle()
        while world.step(until: limit) {}
        return []
    }
    func step(until deadline: Instant) -> Bool { world.step(until: min(deadline, now + .seconds(60))) }
    func advance(by duration: Duration) throws(ScriptError) { throw ServerStage.clockAdvanceRefusal }
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error>? { world.run(operation) }
    var pendingWakeUps: [(time: Instant, kind: WaitKind)] { world.scheduler.pending }
    func exclusively<T>(_ body: () -> T) -> T { body() }
    func stop() { world.stop() }
    func takeTraffic() -> [TrafficEntry] { [] }
    var capturesTraffic: Bool {
        get { false }
        set {}
    }

    // MARK: ChatRuntime

    var executor: any SerialExecutor & TaskExecutor { world.executor }
    var clock: TimeSource { world.clock }
    func sleep(until deadline: Instant, kind: WaitKind) async throws { try await world.sleep(until: deadline, kind: kind) }
    func trace(_ trace: Trace) { world.trace(trace) }
}

/// A session's traffic tape, for a replay with `--tape`.
package struct TapeSource: Sendable {
    package var traffic: [RecordedTraffic]
    /// When the recorded session started (its clock's zero).
    package var start: Instant
    /// When each recorded step started.
    package var stepStarts: [Int: Instant]
    /// The random component the recorded session's client-side ids carry
    /// (``DeviceIDTag``): the recorded value, or for a session recorded
    /// before v11 what the LEGACY reader finds in its paths.
    package var idTag: String

    /// A tape of `session`'s traffic.
    package init(traffic: [RecordedTraffic], start: Instant, stepStarts: [Int: Instant] = [:], idTag: String? = nil) {
        self.traffic = traffic
        self.start = start
        self.stepStarts = stepStarts
        self.idTag = idTag ?? DeviceIDTag.legacyRecorded(inPaths: traffic.lazy.compactMap(\.entry.kind.path))
    }
}
