import ChatCore
import ChatSDK
import Foundation

/// A field recording as a transcript that runs in the embedded world
/// (`chatbench export FILE test.chat`, issue 27 §4): the ``FieldTimeline``
/// run line by line in a fresh world, each action at its recorded time
/// (`clock advance` between them), the world's output kept as the expected
/// output, and after each of the app's calls an `expect` for the state each
/// of its messages was in on the device when the app made its next call.
///
/// Handles (`c1`, `m1`, `w1`) are what each line made (``StepResult/made``),
/// so the device's ids map to the world's; the world's message states are
/// its steps' events. The header says what could not be
/// inferred, and whether the world took the app's messages through the
/// states the device saw.
package enum FieldExport {
    package struct Result: Sendable {
        /// The transcript.
        package var text: String
        /// What could not be inferred (`not inferred: …`), and where the
        /// world took a message through other states (`differs: …`).
        package var notes: [String]
        /// Whether every message the app sent went through the states it
        /// went through on the device, and every `expect` held.
        package var reproduced: Bool
    }

    /// `source`: the file as the user named it, for the header.
    package static func export(
        _ session: RecordedSession, steps: [RecordedStep], traffic: [RecordedTraffic], source: String? = nil
    ) throws(RecordingError) -> Result {
        guard session.isFieldRecording else {
            throw RecordingError(.unsupported, "session \(session.label) is not a field recording")
        }
        let timeline = FieldTimeline(steps: steps, traffic: traffic)
        let workbench: WorkbenchSession
        do {
            workbench = try WorkbenchSession(options: WorkbenchOptions())
        } catch {
            throw RecordingError(.unsupported, "cannot start a world: \(error)")
        }
        var run = FieldRun(workbench: workbench, timeline: timeline)
        for action in timeline.actions { run.perform(action) }
        run.expectStates()
        let recorded = Self.stateSequences(steps.flatMap(\.events))
        let notes = timeline.notes + run.notes
        var differences: [String] = []
        for (id, handle) in run.messages.sorted(by: { $0.value.localizedStandardCompare($1.value) == .orderedAscending }) {
            let device = recorded[id] ?? []
            let world = run.states[handle] ?? []
            if device != world {
                differences.append(
                    "\(handle) (\(id) on the device) went \(Self.path(device)) on the device, \(Self.path(world)) here"
                )
            }
        }
        let reproduced = differences.isEmpty && !run.expectFailed
        var header = [
            "# chatbench transcript of the field recording \(session.label) (\(session.toolVersion), \(session.platform)), recorded \(SessionListing.date(session.created))",
            "# The app's calls, the other side's messages and the network's failures as the recording shows them, at their times; after each call, the states the device saw.",
            source.map {
                "# Written by: chatbench export \($0) FILE (chatbench \(WorkbenchVersion.current)); run it with: chatbench test FILE"
            }
                ?? "# Run it with: chatbench test FILE",
            "# seed: 1",
            "# embedded-only: the device's times, replayed in the embedded world's virtual time",
        ]
        header += notes.map { "# not inferred: \($0)" } + differences.map { "# differs: \($0)" }
        if reproduced { header.append("# The world took every message the app sent through the states the device saw.") }
        return Result(
            text: (header + run.lines).map { $0 + "\n" }.joined(),
            notes: notes.map { "not inferred: \($0)" } + differences.map { "differs: \($0)" },
            reproduced: reproduced)
    }

    /// `toBeSent → sending → sent`.
    static func path(_ states: [SendState.Kind]) -> String { states.map(\.rawValue).joined(separator: " → ") }

    /// Each message's states on the device, in order, repeats dropped.
    static func stateSequences(_ events: [RecordedEvent]) -> [String: [SendState.Kind]] {
        var out: [String: [SendState.Kind]] = [:]
        for case .message(let id, let state)? in events.map({ FieldEvent($0) }) where out[id]?.last != state {
            out[id, default: []].append(state)
        }
        return out
    }

    /// Each message's states in order in a workbench step, by handle
    /// (the world's `messageState` events), repeats dropped.
    static func stateSequences(_ events: [StepEvent]) -> [String: [SendState.Kind]] {
        var out: [String: [SendState.Kind]] = [:]
        for case .messageState(let handle, let state) in events.map(\.event) where out[handle]?.last != state.kind {
            out[handle, default: []].append(state.kind)
        }
        return out
    }
}

/// A field timeline being run in a world: the lines written so far and the
/// handles learnt from them.
struct FieldRun {
    let workbench: WorkbenchSession
    let timeline: FieldTimeline
    var lines: [String] = []
    var notes: [String] = []
    /// Milliseconds since the world began.
    var now: Int64 = 0
    /// The device's conversation and message ids, and the recorder's watcher names, to handles.
    var conversations: [String: String] = [:]
    var messages: [String: String] = [:]
    var watchers: [String: String] = [:]
    /// Each handle's states as the world's events gave them.
    var states: [String: [SendState.Kind]] = [:]
    var watchersOpened = 0
    /// The step whose states are checked before the next call.
    var pendingStep: Int?
    var expectFailed = false

    init(workbench: WorkbenchSession, timeline: FieldTimeline) {
        self.workbench = workbench
        self.timeline = timeline
    }

    mutating func perform(_ action: FieldTimeline.Action) {
        if action.time > now { execute("clock advance \(Format.duration(milliseconds: action.time - now))") }
        switch action.kind {
        case .call(let call, let step):
            expectStates()
            self.call(call, step: step)
            pendingStep = step
        case .agentSays(let conversation, let text):
            guard let c = handle(conversation, "the other side's message") else { return }
            execute("agent say \(c) \(Format.quoted(text))")
        case .agentTyping(let conversation, let on):
            guard let c = handle(conversation, "the other side's typing") else { return }
            execute("agent typing \(c) \(on ? "on" : "off")")
        case .drop: execute("net drop")
        case .offline: execute("net offline")
        case .online: execute("net online")
        case .fail(let kind): execute("net fail 1 --kind \(kind.rawValue)")
        case .settle: execute("settle")
        }
    }

    /// `expect m1.state == sent` for each message of the last call's step.
    mutating func expectStates() {
        guard let step = pendingStep else { return }
        pendingStep = nil
        for (id, state) in timeline.states[step] ?? [] {
            guard let m = messages[id] else { continue }
            let result = execute("expect \(m).state == \(state.rawValue)")
            if result.status == .expectFailed { expectFailed = true }
        }
    }

    private mutating func call(_ call: FieldCall, step: Int) {
        let returned = timeline.returned[step]
        switch call {
        case .client(let cache, let autoResend, let pageSize, _):
            if pageSize != 20 { notes.append("the client's page size was \(pageSize): the workbench's clients use 20") }
            guard cache != .disk || !autoResend else { return }
            execute("client new app --cache \(cache.rawValue)\(autoResend ? "" : " --no-auto-resend")")
        case .setCurrentUser(let id): execute("user set \(word(id))")
        case .clearCurrentUser: execute("user clear")
        case .startConversation(let id, let title):
            var line = "start conversation"
            if let id { line += " --id \(word(id))" }
            if let title { line += " --title \(Format.quoted(title))" }
            let result = execute(line)
            if let known = id ?? returned, let c = result.made { conversations[known] = c }
        case .watchConversations: watch("watch conversations")
        case .watchConversation(let id): if let c = handle(id, "a watcher") { watch("watch conversation \(c)") }
        case .watchItems(let id): if let c = handle(id, "a watcher") { watch("watch items \(c)") }
        case .sendText(let text, let conversation):
            if let c = handle(conversation, "a send") { send("send \(c) text \(Format.quoted(text))", returned) }
        case .sendAttachment(let kind, let mime, let bytes, let conversation):
            if let c = handle(conversation, "a send") { send("send \(c) \(kind) --size \(bytes) --type \(word(mime))", returned) }
        case .retry(let id):
            guard let m = messages[id] else { return notes.append("retrySending of \(id), a message the recording does not show sent") }
            execute("retry \(m)")
        case .typing(let on, let conversation): if let c = handle(conversation, "typing") { execute("typing \(c) \(on ? "on" : "off")") }
        case .reachability(let reachable): execute(reachable ? "net online" : "net offline")
        case .background: execute("app background")
        case .foreground: execute("app foreground")
        case .shutdown: execute("app shutdown")
        case .loginAnonymous: execute("login anonymous")
        case .disconnect: notes.append("disconnect() at step \(step): the workbench has no verb for it")
        case .cancel(let name): if let w = watchers[name] { execute("stop \(w)") }
        case .loadMore(let name): if let w = watchers[name] { execute("more \(w)") }
        case .unsupported: break
        }
    }

    private mutating func watch(_ line: String) {
        watchersOpened += 1
        if let w = execute(line).made { watchers[FlightRecorder.watcherName(watchersOpened - 1)] = w }
    }

    private mutating func send(_ line: String, _ returned: String?) {
        let result = execute(line)
        if let returned, let m = result.made { messages[returned] = m }
    }

    /// The handle of the device's conversation `id`; nil, noted, when the
    /// recording never showed it started.
    private mutating func handle(_ id: String, _ what: String) -> String? {
        if let c = conversations[id] { return c }
        notes.append("\(what) in \(id), a conversation the recording does not show started: not exported")
        return nil
    }

    @discardableResult
    private mutating func execute(_ input: String) -> StepResult {
        let result = workbench.execute(input)
        now = result.virtualTime.milliseconds - workbench.startTime.milliseconds
        let step = workbench.recordedStep(number: lines.count + 1, input: input, result: result)
        lines.append("> \(step.input)")
        lines += TranscriptRunner.lines(of: step.output).map(Transcript.expectedLine)
        for (handle, sequence) in FieldExport.stateSequences(result.events) {
            for state in sequence where states[handle]?.last != state { states[handle, default: []].append(state) }
        }
        return result
    }

    /// An argument as one word: quoted when it has to be.
    private func word(_ text: String) -> String {
        text.contains(where: { $0 == " " || $0 == "\"" || $0 == "#" || $0 == "'" }) || text.isEmpty ? Format.quoted(text) : text
    }
}
