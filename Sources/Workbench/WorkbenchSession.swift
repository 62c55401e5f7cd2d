import ChatCore
import ChatSDK
import ChatSimulation

/// Options a workbench session starts with (from the command line).
public struct WorkbenchOptions: Sendable {
    /// Seed of the embedded world's random choices.
    package var seed: UInt64 = 1
    /// Stop a script at the first failing `expect` or script error.
    package var bail: Bool = false
    /// True when a person types at a terminal (affects nothing printed by
    /// commands; only the banner and hints).
    package var interactive: Bool = false
    /// The terminal's width, which `help` wraps to; nil (scripts,
    /// transcripts) leaves lines as they are, so output stays the same.
    package var width: Int?
    /// The server to run against (`--server URL`); nil for the embedded world.
    package var serverURL: String?
    /// The app the workbench plays against that server; nil for the demo app.
    package var app: AppCredentials?
    /// A server-mode session's traffic tape to replay instead of a server.
    package var tape: TapeSource?
    /// What stops a running command: a session's own by default, which
    /// nothing requests; the REPL gives the one its Ctrl-C requests
    /// (chatbench's `Interrupt`), and a replay one of its own, so that where
    /// it stops an interrupted step stops nothing else in the process.
    package var interruption = Interruption()
    public init() {}
}

/// How one line went.
public enum StepStatus: Sendable, Hashable {
    case ok
    /// An `expect` did not hold.
    case expectFailed
    /// The line could not be understood (unknown verb, handle, field, option).
    case scriptError
    /// The user asked to leave.
    case quit
    /// Ctrl-C stopped the command: the world stays as it was then.
    case interrupted
}

public struct StepResult: Sendable, Hashable {
    /// What the line printed, each line ending with "\n" (empty when nothing),
    /// and what its parts are (an error, an `ok:`, an event's time), said
    /// where each line was made. It includes the event lines below, formatted.
    package var styledOutput: StyledText
    /// What the line printed, each line ending with "\n" (empty when nothing).
    /// It includes the event lines below, formatted.
    package var output: String { styledOutput.text }
    public var status: StepStatus
    /// What happened in the world during the step, in order (watcher
    /// emissions, state changes, SDK events), with virtual times.
    package var events: [StepEvent]
    /// The virtual clock when the step ended.
    package var virtualTime: Instant
    /// `virtual 44ms, wall 1.2ms` after each step while `timing on`: for
    /// the person at the REPL, never recorded or compared (wall time varies).
    package var timing: String?
    /// What crossed the wire during the step (server mode only; empty in
    /// the embedded world).
    package var traffic: [TrafficEntry]
    /// What kind of mistake the line was, when its status is `scriptError`.
    package var scriptError: ScriptError.Code?
    /// Why the step failed (`expectFailed`, `scriptError`): what the expect
    /// or wait found (`expected == "sent", found "toBeSent"`), or the
    /// script error's message.
    package var failure: String?
    /// The handle of the object the line made (`c1` for `c1 = conversation
    /// …`, or the name the line gave it), nil when it made none.
    package var made: String?
    /// When Ctrl-C stopped the step (`interrupted`) in the embedded world:
    /// how far the world had run in it (``Interruption/ticks``), so that a
    /// replay stops it at the same point.
    package var stoppedAfterTicks: Int?

    package init(
        output: String, status: StepStatus, events: [StepEvent] = [], virtualTime: Instant = .simulationEpoch,
        traffic: [TrafficEntry] = [], timing: String? = nil
    ) {
        self.init(
            styledOutput: StyledText(output), status: status, events: events, virtualTime: virtualTime, traffic: traffic, timing: timing)
    }

    package init(
        styledOutput: StyledText, status: StepStatus, events: [StepEvent] = [], virtualTime: Instant = .simulationEpoch,
        traffic: [TrafficEntry] = [], timing: String? = nil
    ) {
        self.timing = timing
        self.styledOutput = styledOutput
        self.status = status
        self.events = events
        self.virtualTime = virtualTime
        self.traffic = traffic
    }
}

/// One thing that happened during a step: the fact itself, as the world
/// logged it, and its line.
package struct StepEvent: Sendable, Hashable {
    package var time: Instant
    /// What happened (a message's new state, a watcher's emission…): what
    /// a reader of the step reads, rather than its line.
    package var event: WorldEvent
    /// Where it came from: the first word of the line (`client.session`,
    /// `w1`, `m1:`, `provider:`, `net:`).
    package var source: String
    package var text: String

    init(time: Instant, event: WorldEvent, text: String) {
        self.time = time
        self.event = event
        source = event.source
        self.text = text
    }
}

/// One workbench session: a world, its objects and handles, and the command
/// language on top. No terminal code: the executable feeds it lines.
public final class WorkbenchSession {
    package let options: WorkbenchOptions
    /// Replaced by a fresh one (same options) when `reset` runs.
    var interpreter: Interpreter
    let redactor = Redactor()

    public init(options: WorkbenchOptions) throws {
        self.options = options
        interpreter = try Interpreter(options: options)
    }

    /// One line saying what this is, for the top of an interactive session.
    package var banner: String {
        let app = options.app.map { " as app \($0.apiKey)" } ?? ""
        let world =
            options.serverURL.map { "server \($0)\(app), real time" }
            ?? "embedded backend, seed \(options.seed), clock \(interpreter.world.now)"
        return "chatbench \(WorkbenchVersion.current) — \(world). Type help, Tab completes, Ctrl-D quits."
    }

    /// Executes one line and returns what it printed.
    public func execute(_ line: String) -> StepResult {
        if let kept = historyLine(for: line) { interpreter.state.typedLines.append(kept) }
        let timed = interpreter.state.timing
        let started = ContinuousClock.now
        let virtualStart = interpreter.world.now
        var result = interpreter.world.exclusively { interpreter.execute(line) }
        if interpreter.state.resetRequested { reset() }
        if timed, interpreter.state.timing {
            result.timing =
                "virtual \(Format.duration(result.virtualTime - virtualStart)), wall \(Format.wall(seconds: (ContinuousClock.now - started).timeInterval))"
        }
        return result
    }

    /// Whether the traffic of each step is collected (`StepResult.traffic`):
    /// a recording and an HTML capture read it; a session run with
    /// `--no-record` turns it off, sparing the encoding of every request,
    /// answer and frame. On by default.
    package var capturesTraffic: Bool {
        get { interpreter.world.capturesTraffic }
        set { interpreter.world.capturesTraffic = newValue }
    }

    /// Whether the session keeps the values the client and the server
    /// minted, by what they are (``MintedValues``): a run checked against
    /// a server needs them, in either world, and a server session's
    /// recording marks them. On in server mode, off otherwise.
    package var keepsMintedValues: Bool {
        get { interpreter.handles.minted.isKept }
        set { interpreter.handles.minted.isKept = newValue }
    }

    /// The values minted in the session so far, when kept.
    var mintedValues: MintedValues { interpreter.world.exclusively { interpreter.handles.mintedValues() } }

    /// Where `history` finds earlier lines (the REPL's history store); by
    /// default, the lines of this session.
    package var historySource: (() -> [String])? {
        get { interpreter.state.historySource }
        set { interpreter.state.historySource = newValue }
    }

    /// A fresh world with the same seed and the same settings (`reset`).
    private func reset() {
        let old = interpreter
        guard let fresh = try? Interpreter(options: old.options) else {
            old.state.resetRequested = false
            return
        }
        fresh.recording = old.recording
        fresh.sawScriptError = old.sawScriptError
        fresh.sawExpectFailure = old.sawExpectFailure
        fresh.state.timing = old.state.timing
        fresh.state.historySource = old.state.historySource
        fresh.state.typedLines = old.state.typedLines
        fresh.world.capturesTraffic = old.world.capturesTraffic
        fresh.handles.minted.isKept = old.handles.minted.isKept
        interpreter = fresh
    }

    /// What the prompt shows besides `chatbench`: the current client when it
    /// is not the first one, and the server in server mode
    /// (`phone2`, `server 127.0.0.1:8080`); nil when there is nothing to add.
    package var promptContext: String? {
        var parts: [String] = []
        if let name = interpreter.current?.name, name != "client" { parts.append(name) }
        if let url = options.serverURL {
            let host = url.replacingOccurrences(of: "http://", with: "").replacingOccurrences(of: "https://", with: "")
            parts.append("server " + (host.hasSuffix("/") ? String(host.dropLast()) : host))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " @ ")
    }

    /// Candidates for the word that ends at `cursor` (a UTF-8 offset into
    /// `line`): verbs, options, handles, field paths. Each candidate is the
    /// whole replacement word.
    package func completions(for line: String, cursor: Int) -> [String] {
        let utf8 = Array(line.utf8)
        let prefix = String(decoding: utf8.prefix(max(0, min(cursor, utf8.count))), as: UTF8.self)
        return interpreter.world.exclusively { interpreter.completions(forPrefix: prefix) }
    }

    /// The line as it may be written to history, with secrets replaced by
    /// placeholders; nil when it should not be kept at all.
    package func historyLine(for line: String) -> String? {
        let trimmed = line.trimmingWhitespace
        guard !trimmed.isEmpty else { return nil }
        learnSecrets(of: trimmed)
        return redactor.redact(trimmed)
    }

    /// Tells the redactor the secrets `line` gives as arguments (an API key
    /// typed to `server app new`), so that they are replaced in this line,
    /// its output and everything after, not from their first use on the wire.
    func learnSecrets(of line: String) {
        let secrets = interpreter.world.exclusively { interpreter.secrets(in: line) }
        for secret in secrets { _ = redactor.placeholder(for: secret, kind: "secret") }
    }

    /// 0 when every step was ok, 1 if an `expect` failed, 2 if a line could
    /// not be understood (2 wins over 1).
    package var exitStatus: Int32 {
        interpreter.sawScriptError ? 2 : (interpreter.sawExpectFailure ? 1 : 0)
    }
}

/// The tool's version, shown by `--version` and recorded with sessions.
package enum WorkbenchVersion {
    package static let current = "0.1.0"
}
