import ChatCore
import ChatSDK
import ChatSimulation

/// What a command's handler may do, and all it may do (issue 29, "Handlers
/// get values"): print (``output``), act on the world through the current
/// client (``world``), name objects (``handles``), check and show values
/// (``inspection``) and change the session's settings (``session``).
///
/// The table parses and checks a line's arguments (``Invocation``); the
/// handler gets them with this context, never the interpreter: a verb or
/// an option is added in its table entry, and what a handler needs that
/// this does not give is added here, in one place. The parts hold the
/// session's own parts (the stage, ``SessionObjects``, ``SessionSettings``,
/// the step's ``StepOutput``), not the interpreter, so a context can be
/// made without one (``init(stage:handles:state:output:log:onlineEpoch:cacheFolder:table:helpWidth:runLine:)``).
struct CommandContext {
    /// Where the step's lines go.
    let output: StepOutput
    /// The world: the stage, the current client, SDK calls, the clock.
    let world: World
    /// Handles: resolving the words that name objects, binding names.
    let handles: Handles
    /// Values: paths, expectations, help.
    let inspection: Inspection
    /// The session around the world: timing, history, reset, recording, scripts.
    let session: Session

    /// The session's objects, which the other parts share.
    typealias Handles = SessionObjects
}

extension CommandContext {
    /// A context of its parts, each made of the session's parts (the
    /// stage, its objects, its state, the step's output), not of an
    /// interpreter: the interpreter makes its own this way, and a test can
    /// make one to run a handler alone. `runLine` runs a line as a step of
    /// its own (`run FILE`): the interpreter's `execute`.
    init(
        stage: any Stage, handles: SessionObjects, state: SessionSettings, output: StepOutput, log: EventLog,
        onlineEpoch: OnlineEpoch, cacheFolder: String, table: CommandTable = .standard, helpWidth: Int?,
        runLine: @escaping (String) -> StepResult
    ) {
        self.output = output
        self.handles = handles
        world = World(
            stage: stage, log: log, onlineEpoch: onlineEpoch, cacheFolder: cacheFolder, handles: handles, state: state, output: output)
        inspection = Inspection(handles: handles, state: state, output: output, table: table, helpWidth: helpWidth)
        session = Session(state: state, runLine: runLine)
    }
}

extension CommandContext {
    /// The world as a command acts on it: through the current client's SDK
    /// calls and the clock.
    struct World {
        /// The embedded world, a server, or a tape.
        let stage: any Stage
        /// What the clients, watchers and messages log as it happens.
        let log: EventLog
        /// Bumped by `net online`: a `net offline --after` armed before it no longer fires.
        let onlineEpoch: OnlineEpoch
        /// Where the session's clients keep their disk caches.
        let cacheFolder: String
        let handles: SessionObjects
        let state: SessionSettings
        let output: StepOutput

        var isEmbedded: Bool { stage.isEmbedded }
        /// The embedded world; nil against a server or a tape.
        var embedded: ChatSimulation.World? { (stage as? EmbeddedStage)?.world }
        /// The client the app's calls go to (`use NAME` changes it).
        var current: ClientObject {
            get { handles.current }
            nonmutating set { handles.current = newValue }
        }

        /// `error`: the last error of an SDK call.
        var error: ChatError? {
            get { state.lastError }
            nonmutating set { state.lastError = newValue }
        }

        /// Runs an SDK call and the world until idle. A `ChatError` is
        /// printed and becomes `error`; nil means it failed or is still pending.
        @discardableResult
        func perform<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> T? {
            switch stage.run(operation) {
            case .success(let value)?: return value
            case .failure(let error)?:
                report(error)
                return nil
            case nil:
                output.print("(still waiting: it completes when the clock reaches a timer; try clock advance or settle)")
                return nil
            }
        }

        /// Prints an error of an SDK call, which becomes `error`.
        func report(_ error: any Error) {
            let chatError: ChatError =
                switch error {
                case let error as ChatError: error
                case let error as WireError: ChatError(ChatError.Code(error.code), error.message)
                default: ChatError(ChatError.Code(rawValue: "error"), "\(error)")
                }
            state.lastError = chatError
            output.print("error: \(chatError.code) — \(chatError.message)", as: .failure)
        }
    }

    /// Values: paths into objects, expectations about them, help.
    struct Inspection {
        let handles: SessionObjects
        let state: SessionSettings
        let output: StepOutput
        /// The verbs `help` lists.
        let table: CommandTable
        /// The width `help` wraps to.
        let helpWidth: Int?

        /// Whether `root` names an object, a client or a built-in.
        func isKnownRoot(_ root: String) -> Bool { handles.isKnownRoot(root) }
        /// Every name a path can start with, for an unknown one's hint.
        var roots: [String] { handles.roots }
        /// `clock`: the virtual time, as the clock object shows it.
        var clock: String { ClockObject(world: handles.stage, start: handles.start).summary(in: handles) }
        /// A field of the server object (`server.messages(c1)`).
        func server(_ field: String, argument: String?) throws(ScriptError) -> Resolved? {
            try ServerObject(world: handles.stage).field(field, argument: argument, in: handles)
        }
    }

    /// The session around the world.
    struct Session {
        let state: SessionSettings
        /// Runs one line in this session, as a step of its own (the interpreter's `execute`).
        let runLine: (String) -> StepResult

        /// The world's seed.
        var seed: UInt64 { state.seed }
        /// `timing on`: after each command, the virtual and the wall time it took.
        var timing: Bool {
            get { state.timing }
            nonmutating set { state.timing = newValue }
        }
        /// `net log on`: the step shows each request the SDK makes.
        var showNetwork: Bool {
            get { state.showNetwork }
            nonmutating set { state.showNetwork = newValue }
        }
        /// The lines typed, earlier sessions' first, redacted.
        var history: [String] { state.historySource?() ?? state.typedLines }
        /// Asks for a fresh world after this step.
        func requestReset() { state.resetRequested = true }
        /// The recorder of this session; nil when not recording.
        var recording: (any RecordingControl)? { state.recording }
        /// The recorded session `reference` names for `verb` (`replay`,
        /// `export`): a file, or a session of this session's recording
        /// database other than this one (``RecordingStore/open(session:db:current:)``).
        func recordedSession(_ reference: String, for verb: String) throws(ScriptError) -> (RecordingStore, RecordedSession) {
            let database = recording?.databasePath
            guard database != nil || RecordingStore.looksLikeFile(reference) else {
                throw ScriptError(
                    .recording,
                    "this session is not recorded, so there is no database to find session \(Format.quoted(reference)) in: name a recording file, or run chatbench \(verb) \(reference) [--db PATH]"
                )
            }
            return try ScriptError.recording { () throws(RecordingError) in
                try RecordingStore.open(session: reference, db: database ?? "", current: recording?.sessionInProgress)
            }
        }
        /// Says why the step failed (``StepResult/failure``).
        func fail(_ reason: String?) { state.stepFailure = reason }

        /// Runs `body`, which runs a script's lines (``execute(_:)``), one
        /// level deeper; refuses to nest deeper than 8 (a script that runs itself).
        func nested(_ body: () throws(ScriptError) -> Void) throws(ScriptError) {
            guard state.runDepth < 8 else { throw ScriptError(.tooDeep, "run is nested too deeply (a script that runs itself?)") }
            state.runDepth += 1
            defer { state.runDepth -= 1 }
            try body()
        }

        /// Runs one line in this session, as a step of its own.
        func execute(_ line: String) -> StepResult { runLine(line) }
    }
}
