import ChatBackend
import ChatCore
import ChatSDK
import Synchronization

/// The deterministic embedded world (SPEC W4): one executor, one virtual
/// clock, one seeded random source, the in-process network and the backend.
///
/// The world never runs by itself: whoever owns it (the workbench, a test)
/// calls `runUntilIdle()`, `advance(by:)` or `settle()` on one thread, and
/// everything due runs there in (virtual time, sequence) order.
public final class World: ChatRuntime, TracingRuntime, Sendable {
    package let seed: UInt64
    package let scheduler: Scheduler
    public let simulationExecutor: SimulationExecutor
    package let network: SimulatedNetwork
    public let backend: Backend
    /// The world's seeded source of identifiers, shared by everything in
    /// it: the backend's ids and the clients'. Jitter comes from streams of
    /// its own (``jitter(for:)``, the network's latency).
    package let random: RandomSource
    /// The jitters' streams (back-offs per client, latency per transport).
    private let streams: RandomStreams
    /// The virtual clock (the scheduler's).
    package let clock: TimeSource
    /// What stops the world mid-command (Ctrl-C).
    package let interruption: Interruption
    private let traceSink: Mutex<TraceSink?>
    private let holding = Atomic(false)

    /// While set, running the world does not move virtual time on for work
    /// in flight: it runs what is due now and returns, and the work goes on
    /// as the clock moves later (a command started with `&`, issue 29).
    package var holdsInFlight: Bool {
        get { holding.load(ordering: .relaxed) }
        set { holding.store(newValue, ordering: .relaxed) }
    }

    /// The trace closure in a box. Kept in the `Mutex` as a bare closure, it
    /// came back wrapped in one more reabstraction thunk each time it was
    /// read, so a trace cost grew with the number of traces before it.
    private final class TraceSink: Sendable {
        let call: @Sendable (Instant, Trace) -> Void
        init(_ call: @escaping @Sendable (Instant, Trace) -> Void) { self.call = call }
    }

    /// The embedded app every client of the world uses by default.
    public static let apiKey = "demo-key"
    /// The embedded app's JWT secret (the workbench plays the app's backend).
    package static let jwtSecret = "demo-secret-0123456789abcdef"

    /// A world of this seed whose clock starts at the simulation's epoch.
    public convenience init(seed: UInt64 = 1) throws {
        try self.init(seed: seed, start: .simulationEpoch, interruption: Interruption())
    }

    /// A world of this seed whose clock starts at `start`, stopped by `interruption`.
    package init(seed: UInt64, start: Instant = .simulationEpoch, interruption: Interruption) throws {
        self.seed = seed
        self.interruption = interruption
        let scheduler = Scheduler(start: start)
        let random = RandomSource(seed: seed)
        let streams = RandomStreams(seed: seed)
        self.scheduler = scheduler
        let clock = TimeSource { scheduler.now }
        self.random = random
        self.streams = streams
        self.clock = clock
        simulationExecutor = SimulationExecutor(interruption: interruption)
        traceSink = Mutex(nil)
        backend = try Backend(
            environment: BackendEnvironment(clock: clock, random: random))
        try backend.createApp(apiKey: Self.apiKey, jwtSecret: Self.jwtSecret)
        network = SimulatedNetwork(scheduler: scheduler, backend: backend)
    }

    /// Starts `operation` as a task on the world's executor (what
    /// `ChatRuntime.spawn` does inside the package, for code outside it
    /// such as Benchmarks/).
    @discardableResult
    public func spawn(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: simulationExecutor, operation: operation)
    }

    /// The agent says `text` in a conversation of the world's backend (S2),
    /// for code outside the package such as Benchmarks/.
    public func agentSay(_ text: String, in conversationId: String) throws {
        _ = try backend.agentSay(conversationId: conversationId, text: text)
    }

    /// A transport for an SDK client on this world's network, on the link
    /// of its device (`net offline --client`; nil: the network's alone).
    package func makeTransport(deviceId: String? = nil) -> any ChatTransport {
        SimulatedTransport(
            world: self, network: network, deviceId: deviceId, latency: streams.next("latency"))
    }

    // MARK: ChatRuntime

    package var executor: any SerialExecutor & TaskExecutor { simulationExecutor }

    /// A client's back-off jitter: a stream of its own (the clients
    /// numbered in the order they are made), independent of the
    /// identifiers drawn from ``random`` and of other clients' draws.
    package func makeJitterSource() -> RandomSource { streams.next("jitter") }

    package func sleep(until deadline: Instant, kind: WaitKind) async throws {
        try await sleep(until: deadline, kind: kind, cutting: nil)
    }

    /// A leg of `trip` ends at once when the trip is cut (`net offline
    /// --in-flight`): its wake-up goes, and the cut is thrown.
    package func sleep(until deadline: Instant, kind: WaitKind, trip: WireTrip) async throws {
        defer { trip.stopWaiting() }
        try await sleep(until: deadline, kind: kind, cutting: trip)
    }

    private func sleep(until deadline: Instant, kind: WaitKind, cutting trip: WireTrip?) async throws {
        let timer = Mutex<Scheduler.TimerID?>(nil)
        let continuationBox = Mutex<CheckedContinuation<Void, any Error>?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                continuationBox.withLock { $0 = continuation }
                let id = scheduler.schedule(at: deadline, kind: kind) {
                    continuationBox.withLock { $0.take() }?.resume()
                }
                timer.withLock { $0 = id }
                let scheduler = scheduler
                let wake: @Sendable (WireTrip.Cut) -> Void = { cut in
                    scheduler.cancel(id)
                    continuationBox.withLock { $0.take() }?.resume(throwing: cut)
                }
                if let cut = trip?.waiting(wake) { wake(cut) }
            }
        } onCancel: {
            if let id = timer.withLock({ $0 }) { scheduler.cancel(id) }
            continuationBox.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    package func trace(_ trace: Trace) {
        let sink = traceSink.withLock { $0 }
        sink?.call(now, trace)
    }

    /// Where `trace` lines go (the workbench's event log).
    package func onTrace(_ sink: @escaping @Sendable (Instant, Trace) -> Void) {
        let box = TraceSink(sink)
        traceSink.withLock { $0 = box }
    }

    /// The world is done with: drops what was hooked onto it (the trace
    /// sink, the wire observer, the fault sink). Each of those may hold the
    /// world (a reporter of its traffic reads its clock), and the world
    /// holds them: without this a finished world, its backend and its
    /// in-memory databases would outlive their owner (an explore worker
    /// grew by 0.4 MB a run).
    package func stop() {
        traceSink.withLock { $0 = nil }
        network.observe(nil)
        network.conditions.onFault(nil)
    }

    // MARK: Running

    /// Runs every job and wake-up until no work is in flight: virtual time
    /// moves through network latencies as far as that work needs, and timers
    /// due on the way fire in order. Timers beyond the last in-flight work
    /// stay pending. Returns early when an interruption is requested.
    public func runUntilIdle() {
        while !interruption.isRequested {
            simulationExecutor.drain()
            if let fire = scheduler.popDue(upTo: scheduler.now) {
                fire()
                interruption.tick()
                continue
            }
            guard !holdsInFlight, let next = scheduler.earliestInFlight, let fire = scheduler.popDue(upTo: next) else { return }
            fire()
            interruption.tick()
        }
    }

    /// Moves the clock forward by `duration`, firing every timer due on the
    /// way in order, then runs until idle.
    package func advance(by duration: Duration) {
        let target = now + duration
        while !interruption.isRequested {
            simulationExecutor.drain()
            guard let fire = scheduler.popDue(upTo: target) else { break }
            fire()
            interruption.tick()
        }
        guard !interruption.isRequested else { return }
        guard !scheduler.stopsBefore(target) else { return }
        scheduler.move(to: target)
        // The clock stops at the target: work still in flight there goes on
        // as the clock moves later (issue 29).
        let held = holdsInFlight
        holdsInFlight = true
        defer { holdsInFlight = held }
        runUntilIdle()
    }

    /// Fires the next pending wake-up, whatever its kind, then runs until
    /// idle; false when nothing is pending at or before `deadline`.
    package func step(until deadline: Instant) -> Bool {
        simulationExecutor.drain()
        guard !interruption.isRequested, let next = scheduler.earliest, next <= deadline,
            let fire = scheduler.popDue(upTo: next)
        else { return false }
        fire()
        interruption.tick()
        runUntilIdle()
        return true
    }

    /// Runs until no work is in flight and no recovery is pending (the SDK
    /// reconnecting after a back-off, retrying its outbox), or `limit` of
    /// virtual time has passed. The clock moves only as far as that work
    /// needs: lifecycle timers (token refresh, expiry, typing) fire only
    /// if the clock passes them on the way. Returns what the recovery
    /// wake-ups that fired were for, in order, without repeats.
    @discardableResult
    package func settle(limit: Duration = .seconds(3600)) -> [String] {
        let deadline = now + limit
        var reasons: [String] = []
        while !interruption.isRequested {
            simulationExecutor.drain()
            let next = scheduler.earliest(in: [.inFlight, .recovery]).map { min($0, deadline) } ?? now
            guard let (kind, fire) = scheduler.popDueEntry(upTo: max(next, now)) else { break }
            if kind.category == .recovery, !reasons.contains(kind.purpose) { reasons.append(kind.purpose) }
            fire()
            interruption.tick()
        }
        return reasons
    }

    /// Stops the world as Ctrl-C did when the step being replayed was
    /// recorded: the clock stops at `clock`, and the world's interruption is
    /// requested there (see ``Scheduler/stop(at:firingAll:reached:)``).
    package func interrupt(at clock: Instant, firingAll: Bool) {
        let interruption = interruption
        scheduler.stop(at: clock, firingAll: firingAll) { interruption.request() }
    }

    /// The world runs as usual again (``interrupt(at:firingAll:)``).
    package func removeInterruptionPoint() {
        scheduler.removeStop()
    }

    /// Runs `operation` on the world's executor and the world until idle;
    /// returns its result, or nil when it is still waiting (for a timer).
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Result<T, any Error>? {
        let box = Mutex<Result<T, any Error>?>(nil)
        spawn {
            do {
                let value = try await operation()
                box.withLock { $0 = .success(value) }
            } catch { box.withLock { $0 = .failure(error) } }
        }
        runUntilIdle()
        return box.withLock { $0 }
    }
}
