import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

extension Replayer {
    /// Replays an app's field recording (`chatbench replay FILE`, issue 27
    /// §3): a fresh SDK client, with its own flight recorder on, makes the
    /// recorded calls again at their recorded times, on a virtual clock that
    /// starts where the device's did, answered from the recorded wire
    /// (``TapeTransport``: the server's answers and frames at their times).
    /// It mints the ids the device minted (``ReplayedIDs``), so its requests
    /// are the tape's and its events the recording's; the device's network
    /// goes and comes back where the ``FieldTimeline`` says it did. The first
    /// difference in the calls or in any subject's events (``firstDivergence(_:_:)``)
    /// is the divergence; requests the tape does not have are listed as
    /// against a server session's tape.
    package static func replayField(
        _ session: RecordedSession, steps recorded: [RecordedStep], traffic: [RecordedTraffic]
    ) throws(RecordingError) -> ReplayOutcome {
        guard session.isFieldRecording else {
            throw RecordingError(.unsupported, "session \(session.label) is not a field recording")
        }
        guard let first = recorded.first, case .client(let cacheMode, let autoResend, let pageSize, let redacted)? = FieldCall(first) else {
            throw RecordingError(.unsupported, "session \(session.label) does not begin with the client's creation: it cannot be replayed")
        }
        let started = ContinuousClock.now
        let timeline = FieldTimeline(steps: recorded, traffic: traffic)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-field-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let replay: FieldReplayClient
        do {
            replay = try FieldReplayClient(
                session: session, start: Instant(milliseconds: timeline.start), traffic: traffic,
                reachability: timeline.actions.compactMap {
                    switch $0.kind {
                    case .offline: ($0.time, false)
                    case .online: ($0.time, true)
                    default: nil
                    }
                },
                ids: ReplayedIDs(mintedIDs(recorded, timeline)), file: folder.appendingPathComponent("replay.sqlite").path,
                cacheMode: cacheMode, autoResend: autoResend, pageSize: pageSize, redacted: redacted)
        } catch {
            throw RecordingError(.unsupported, "cannot start a replay of session \(session.label): \(error)")
        }
        defer { replay.world.stop() }
        var notes: [String] = []
        if redacted {
            notes.append(
                "the recording's message texts are redacted: the replay sends their summaries, so its requests differ from the tape")
        }
        for step in recorded.dropFirst() {
            replay.tape.beginStep(step.number)
            replay.advance(to: step.virtualTime)
            replay.setWallClock(as: step)
            guard let call = FieldCall(step) else { continue }
            if case .unsupported(let name) = call {
                notes.append(
                    "step \(step.number) calls \(name), which a replay cannot make again (its arguments are not all on the recording)")
                continue
            }
            replay.perform(call, step: step.number)
        }
        let end = max(recorded.flatMap(\.events).map(\.virtualTime).max() ?? 0, traffic.map(\.entry.time.milliseconds).max() ?? 0)
        replay.advance(to: end)
        let replayed: [RecordedStep]
        do {
            let store = try RecordingStore(path: replay.file, create: false, bundle: true)
            replayed = try store.steps(of: try store.bundledSession().id)
        } catch {
            throw RecordingError(.unsupported, "cannot read the replay's own recording: \(error.message)")
        }
        let divergence = firstDivergence(recorded, replayed)
        let elapsed = ContinuousClock.now - started
        var outcome = ReplayOutcome(
            session: session, stepsRun: divergence.map { $0.step } ?? replayed.count, divergence: divergence,
            changedSteps: divergence == nil ? 0 : 1, notes: notes, steps: replayed,
            virtualMilliseconds: max(0, replay.world.now.milliseconds - timeline.start),
            seconds: elapsed.timeInterval)
        outcome.tapeDivergences = replay.tape.divergences.map(\.description)
        outcome.unusedTape =
            divergence == nil
            ? replay.tape.unusedEntries.filter { $0.entry.direction == .out && $0.entry.kind != .close }.map {
                "step \($0.step.map(String.init) ?? "-") \($0.entry.origin.label): \($0.entry.summary)"
            } : []
        outcome.traffic = traffic
        return outcome
    }

    /// The ids the device minted, by prefix, in order: what each
    /// `sendMessage` and each `startConversation` without an id returned.
    static func mintedIDs(_ steps: [RecordedStep], _ timeline: FieldTimeline) -> [String: [String]] {
        var ids: [String: [String]] = [:]
        for step in steps {
            guard let id = timeline.returned[step.number], let call = FieldCall(step) else { continue }
            switch call {
            case .sendText, .sendAttachment: ids["m-", default: []].append(id)
            case .startConversation(nil, _): ids["c-", default: []].append(id)
            default: break
            }
        }
        return ids
    }

    /// Whether two steps hold the same call: their values when both have
    /// one (two calls can render to one text: a quote in a text), else
    /// their texts (a recording made before the values).
    static func sameCall(_ a: RecordedStep, _ b: RecordedStep) -> Bool {
        if let x = a.callJSON, let y = b.callJSON, let first = AppCall(json: x), let second = AppCall(json: y) { return first == second }
        return a.input == b.input
    }

    /// The first difference, as a divergence at the step where it shows;
    /// nil when the calls and every subject's events match.
    ///
    /// Compared: the calls, in order, and each subject's events in order (a
    /// message's states, a watcher's emissions, the session's and the
    /// connection's states, how calls ended), times aside. How one
    /// subject's events fall among another's, or on either side of the
    /// app's next call, is a matter of threads on a device and of the order
    /// of wake-ups in the replay: it is not compared.
    static func firstDivergence(_ recorded: [RecordedStep], _ replayed: [RecordedStep]) -> ReplayOutcome.Divergence? {
        var found: [(step: Int, hint: String)] = []
        let (calls, again) = (recorded.map(\.input), replayed.map(\.input))
        if let index = calls.indices.first(where: { $0 >= again.count || !sameCall(recorded[$0], replayed[$0]) }) {
            found.append(
                (recorded[index].number, index < again.count ? "the replay called \(again[index])" : "the replay stopped before this call"))
        } else if again.count > calls.count {
            found.append((replayed[calls.count].number, "the replay made a call the device did not: \(again[calls.count])"))
        }
        let (device, replay) = (subjects(recorded), subjects(replayed))
        for subject in Set(device.keys).union(replay.keys) {
            var (a, b) = (device[subject] ?? [], replay[subject] ?? [])
            if (a + b).contains(where: \.isEmission) { (a, b) = coalesced(a, as: b) }
            guard let k = (0..<max(a.count, b.count)).first(where: { $0 >= a.count || $0 >= b.count || !a[$0].matches(b[$0]) }) else {
                continue
            }
            let shown = { (events: [FieldSubjectEvent]) in k < events.count ? "\"\(events[k].text)\"" : "nothing" }
            found.append(
                (
                    k < a.count ? a[k].step : b[k].step,
                    "\(subject)'s event \(k + 1): \(shown(a)) on the device, \(shown(b)) in the replay"
                ))
        }
        guard let first = found.min(by: { ($0.step, $0.hint) < ($1.step, $1.hint) }) else { return nil }
        let step = recorded.first { $0.number == first.step } ?? replayed.first { $0.number == first.step }!
        let (shownRecorded, shownReplayed) = (atTheirCalls(recorded), atTheirCalls(replayed))
        let expected = shownRecorded.first { $0.number == first.step }.map(stepLines) ?? []
        let actual = shownReplayed.first { $0.number == first.step }.map(stepLines) ?? []
        return ReplayOutcome.Divergence(
            step: step.number, input: step.input, expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"),
            diffLines: LineDiff.diff(expected: expected, actual: actual), hint: first.hint)
    }

    /// A watcher's emissions on the device and in the replay, as compared:
    /// what it showed without its freshness (`cached, refreshing`), repeats
    /// dropped. A device's watcher may skip what the replay's showed (its
    /// observation coalesces changes that come together, and one started
    /// a moment late never shows what came before): when the device's are,
    /// in order, among the replay's, and both end alike, the replay's are
    /// kept to the device's.
    static func coalesced(
        _ device: [FieldSubjectEvent], as replay: [FieldSubjectEvent]
    ) -> ([FieldSubjectEvent], [FieldSubjectEvent]) {
        func shown(_ events: [FieldSubjectEvent]) -> [FieldSubjectEvent] {
            var out: [FieldSubjectEvent] = []
            for event in events.map(\.withoutFreshness) where out.last?.matches(event) != true { out.append(event) }
            return out
        }
        let (a, b) = (shown(device), shown(replay))
        var kept: [FieldSubjectEvent] = []
        var rest = b[...]
        for event in a {
            guard let index = rest.firstIndex(where: { $0.matches(event) }) else { return (a, b) }
            kept.append(rest[index])
            rest = rest[(index + 1)...]
        }
        let sameEnd = a.last.map { last in b.last.map(last.matches) ?? false } ?? b.isEmpty
        return sameEnd ? (a, kept) : (a, b)
    }

    /// `steps` as shown in a divergence: each event that happened at (or
    /// after) the next call's time, but how the step's own call ended, moved
    /// to the next call: whether the app's call or what the network brought
    /// at the same millisecond came first is a matter of threads on a
    /// device, and of the order of wake-ups in the replay.
    static func atTheirCalls(_ steps: [RecordedStep]) -> [RecordedStep] {
        var steps = steps
        for index in steps.indices.dropLast().reversed() {
            let next = steps[index + 1].virtualTime
            let moves = { (event: RecordedEvent) in
                guard case .call = event.kind else { return event.virtualTime >= next }
                return false
            }
            let later = steps[index].events.filter(moves)
            guard !later.isEmpty else { continue }
            steps[index].events.removeAll(where: moves)
            steps[index + 1].events.insert(contentsOf: later, at: 0)
        }
        return steps
    }

    /// Each subject's events (a message, a watcher, the session, the
    /// calls…, ``FieldSubjectEvent/Subject``), in order, with their steps.
    static func subjects(_ steps: [RecordedStep]) -> [FieldSubjectEvent.Subject: [FieldSubjectEvent]] {
        var out: [FieldSubjectEvent.Subject: [FieldSubjectEvent]] = [:]
        for step in steps {
            for event in step.events {
                let subjectEvent = FieldSubjectEvent(event, step: step.number)
                out[subjectEvent.subject, default: []].append(subjectEvent)
            }
        }
        return out
    }

    /// A step as compared: its call, then its events' lines.
    static func stepLines(_ step: RecordedStep) -> [String] {
        ["> \(step.input)"] + step.events.map(\.text)
    }
}

/// The fresh client of a field replay, in a world of its own whose clock
/// starts at the recording's start.
final class FieldReplayClient {
    let world: World
    let runtime: FieldReplayRuntime
    let tape: TapeTransport
    let client: ChatClient
    let file: String
    /// Each watcher's consumer, by the recorder's name for it (`w1`).
    private var watchers: [String: Task<Void, Never>] = [:]
    /// A list watcher's latest `loadMore`, by the same name.
    private var loadMore: [String: LockedValue<(@Sendable () async throws -> Void)?>] = [:]

    init(
        session: RecordedSession, start: Instant, traffic: [RecordedTraffic], reachability: [(time: Int64, reachable: Bool)],
        ids: ReplayedIDs, file: String, cacheMode: ChatClient.CacheMode, autoResend: Bool, pageSize: Int, redacted: Bool
    ) throws {
        world = try World(seed: 1, start: start, interruption: Interruption())
        let runtime = FieldReplayRuntime(world: world, ids: ids)
        self.runtime = runtime
        // The tape's times are the recording's monotonic ones: the world's clock, whatever the device's date.
        tape = TapeTransport(tape: traffic, runtime: world)
        self.file = file
        let transport = FieldReplayTransport(tape: tape)
        for change in reachability {
            world.scheduler.schedule(at: start + .milliseconds(change.time), kind: .lifecycle("the device's network")) {
                transport.setReachable(change.reachable)
            }
        }
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: transport, runtime: runtime)
        // The device's disk cache is not here: the replay starts from a memory one.
        configuration.cacheMode = cacheMode == .disk ? .memory : cacheMode
        configuration.autoResend = autoResend
        configuration.pageSize = pageSize
        configuration.deviceId = traffic.lazy.compactMap(\.entry.deviceId).first
        var diagnostics = ChatClient.Diagnostics(file: file, appName: session.name ?? "replay")
        diagnostics.device = session.platform
        diagnostics.content = redacted ? .redacted : .kept
        configuration.diagnostics = diagnostics
        client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        world.runUntilIdle()
    }

    /// Moves the clock to `time` (ms since the Unix epoch), firing what is due on the way.
    func advance(to time: Int64) {
        let target = Instant(milliseconds: time)
        if target > world.now { world.advance(by: target - world.now) }
        world.runUntilIdle()
    }

    /// Sets the client's wall clock where the device's was when it made
    /// `step`'s call (schema v10: its wall clock beside its monotonic time),
    /// when it was set by a second or more since: what depended on the date
    /// on the device (a message's local time, a token's expiry) depends on
    /// it again. A recording made before v10, or whose device kept its
    /// date, leaves it on the monotonic time.
    func setWallClock(as step: RecordedStep) {
        guard let wall = step.deviceClock else { return }
        let change = Duration.milliseconds(wall - step.virtualTime) - runtime.device.wallClockOffset
        if abs(change.wholeMilliseconds) >= 1000 { runtime.device.setWallClock(by: change) }
    }

    /// Makes the app's call again, and runs the world until it is idle.
    func perform(_ call: FieldCall, step: Int) {
        let client = self.client
        switch call {
        case .client, .unsupported: return
        case .setCurrentUser(let id): _ = world.run { try await client.setCurrentUser(userId: id) }
        case .clearCurrentUser: _ = world.run { await client.clearCurrentUser() }
        case .startConversation(let id, let title): _ = world.run { try await client.startConversation(id: id, title: title) }
        case .watchConversations: consume(FlightRecorder.watcherName(watchers.count), client.watchConversations())
        case .watchConversation(let id): consume(FlightRecorder.watcherName(watchers.count), client.watchConversation(withId: id))
        case .watchItems(let id): consume(FlightRecorder.watcherName(watchers.count), client.watchItems(ofConversationWithId: id))
        case .sendText(let text, let conversation): _ = world.run { try await client.sendMessage(.text(text), in: conversation) }
        case .sendAttachment(let kind, let mime, let bytes, let conversation):
            let content = MessageContent.attachment(
                kind: MessageContent.AttachmentKind(rawValue: kind) ?? .document, mimeType: mime, size: Int64(bytes), fileName: nil)
            _ = world.run { try await client.sendMessage(content, in: conversation) }
        case .retry(let id): _ = world.run { try await client.retrySending(itemId: id) }
        case .typing(let on, let conversation): _ = world.run { try await client.setIsTyping(on, in: conversation) }
        case .reachability(let reachable): _ = world.run { await client.networkReachabilityChanged(reachable) }
        case .background: _ = world.run { await client.applicationDidEnterBackground() }
        case .foreground: _ = world.run { await client.applicationWillEnterForeground() }
        case .shutdown: _ = world.run { await client.shutdown() }
        case .disconnect: _ = world.run { await client.disconnect() }
        case .loginAnonymous: _ = world.run { try await client.loginAnonymous() }
        // A watcher the SDK ended already recorded its own cancel (its consumer ended).
        case .cancel(let name): watchers[name]?.cancel()
        case .loadMore(let name):
            guard let more = loadMore[name]?.withLock({ $0 }) else { return }
            _ = world.run { try await more() }
        }
        world.runUntilIdle()
    }

    /// Iterates a watcher as an app does, until it ends or is cancelled.
    private func consume<Value: Sendable>(_ name: String, _ watcher: Watcher<Value>) {
        let more = LockedValue<(@Sendable () async throws -> Void)?>(nil)
        loadMore[name] = more
        watchers[name] = world.spawn {
            do {
                for try await response in watcher {
                    if let list = response.data as? any FieldPaginated { more.withLock { $0 = list.more } }
                }
            } catch {}
        }
        world.runUntilIdle()
    }
}

/// The tape, with the device's network going and coming back where the
/// recording shows it did (``FieldTimeline``'s `offline` and `online`): the
/// tape holds what crossed the wire, not what the device's reachability said.
final class FieldReplayTransport: ChatTransport {
    let tape: TapeTransport
    private let state = LockedValue<(reachable: Bool, listeners: [AsyncStream<Bool>.Continuation])>((true, []))

    init(tape: TapeTransport) {
        self.tape = tape
    }

    func setReachable(_ reachable: Bool) {
        let listeners = state.withLock { state -> [AsyncStream<Bool>.Continuation] in
            guard state.reachable != reachable else { return [] }
            state.reachable = reachable
            return state.listeners
        }
        for listener in listeners { listener.yield(reachable) }
    }

    func perform(_ envelope: WireEnvelope) async throws -> WireResponse {
        guard state.withLock({ $0.reachable }) else { throw TransportError(.offline, "the device had no network") }
        return try await tape.perform(envelope)
    }

    func openRealtime(_ request: RealtimeRequest) async throws -> RealtimeConnection {
        guard state.withLock({ $0.reachable }) else { throw TransportError(.offline, "the device had no network") }
        return try await tape.openRealtime(request)
    }

    func reachability() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let now = state.withLock { state in
            state.listeners.append(continuation)
            return state.reachable
        }
        continuation.yield(now)
        return stream
    }

    var isReachable: Bool? { state.withLock { $0.reachable } }
}

/// The world's executor, clock and timers, with ids the device minted
/// given out first, and no jitter: each back-off (reconnection, outbox
/// retry) is the shortest the device could have waited, so the replay asks
/// the tape no later than the device asked the server, and the tape holds
/// each answer to its recorded time. Its wall clock is a device's
/// (``WallClockRuntime``): set where the recording shows the device's was.
final class FieldReplayRuntime: ChatRuntime, Sendable {
    let world: World
    let device: WallClockRuntime
    let random: RandomSource

    init(world: World, ids: ReplayedIDs) {
        self.world = world
        device = WallClockRuntime(world: world)
        random = RandomSource(NoJitter(), idDigits: 16, replaying: ids)
    }

    var executor: any SerialExecutor & TaskExecutor { world.executor }
    var clock: TimeSource { device.clock }
    var monotonicClock: TimeSource { device.monotonicClock }
    func sleep(until deadline: Instant, kind: WaitKind) async throws { try await device.sleep(until: deadline, kind: kind) }
}

/// A list a watcher gives, whatever its elements: its `loadMore`.
private protocol FieldPaginated {
    var more: (@Sendable () async throws -> Void)? { get }
}

extension PaginatedList: FieldPaginated {
    fileprivate var more: (@Sendable () async throws -> Void)? { loadMore }
}

/// Draws whose low 32 bits (a jitter fraction's) are 0, and whose high
/// bits count, so that ids drawn past the replayed ones still differ.
private struct NoJitter: RandomNumberGenerator, Sendable {
    private var count: UInt64 = 0

    mutating func next() -> UInt64 {
        count += 1
        return count << 32
    }
}
