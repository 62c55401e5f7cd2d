import ChatBackend
import ChatCore
import ChatSDK
import ChatSimulation
import Foundation

/// Runs lines of the command language against one world.
///
/// Everything here runs on the thread that calls `execute`, which is also
/// the thread that pumps the world: objects updated by watcher tasks are
/// never touched concurrently.
// @unchecked Sendable: mutable, and touched only by whoever holds the stage
// (`Stage.exclusively`): the thread running a command, which also runs the
// world's jobs, or in server mode between commands the background pump,
// under the same lock. Never by two threads at once.
final class Interpreter: @unchecked Sendable {
    let world: any Stage
    let start: Instant
    let log = EventLog()
    let table: CommandTable
    let options: WorkbenchOptions

    /// Bumped by `net online`: a `net offline --after` armed before it and
    /// not yet due no longer fires (the window it opened is closed).
    let onlineEpoch = OnlineEpoch()
    /// The session's clients and objects, and the words that name them.
    let handles: SessionObjects
    /// The session's settings, its last error, why the step failed.
    let state: SessionSettings
    /// Where this session's clients keep their disk caches: a fresh folder,
    /// removed when the session ends (never printed: output stays the same).
    let cacheFolder: String

    /// What the current step prints.
    let output = StepOutput()
    var sawExpectFailure = false
    var sawScriptError = false

    init(options: WorkbenchOptions) throws {
        self.options = options
        cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        world = try Self.makeStage(options)
        start = world.now
        table = CommandTable.standard
        handles = SessionObjects(stage: world, start: start)
        // A server session's recording marks the values minted in it.
        handles.minted.isKept = options.serverURL != nil
        state = SessionSettings(seed: options.seed)
        let log = self.log
        world.onTrace { time, trace in
            log.append(time, WorldEvent(trace))
        }
        handles.current = context.world.makeClient(named: "client", cacheMode: .disk, apiKey: world.app.apiKey)
        world.runUntilIdle()
        _ = log.take()
    }

    deinit {
        // Shut every client down so that their tasks end and nothing of this
        // session outlives it (a test run holds many sessions in one process).
        let sdkClients = clients.map(\.client)
        world.exclusively {
            _ = world.run { for client in sdkClients { await client.shutdown() } }
            world.runUntilIdle()
        }
        world.stop()
        try? FileManager.default.removeItem(atPath: cacheFolder)
    }

    // MARK: Output

    /// Prints a line of the step's output (``StepOutput/print(_:as:)``).
    func print(_ line: String, as style: OutputStyle? = nil) { output.print(line, as: style) }

    /// Prints lines made as text elsewhere, plain (``StepOutput/print(lines:)``).
    func print(lines printed: [String]) { output.print(lines: printed) }

    /// Prints `line` after the events of the step (``StepOutput/printAfterEvents(_:as:)``).
    func printAfterEvents(_ line: String, as style: OutputStyle? = nil) { output.printAfterEvents(line, as: style) }

    // MARK: The session's scratch folder

    /// What a line writes for the session's own folder: `export last
    /// $SCRATCH/t.chat`. A file written there is where no other session
    /// or run writes (two runs of one transcript at once do not collide),
    /// and the folder goes with the session (it is in its cache folder).
    static let scratchWord = scratchMark.description
    private static let scratchMark: StaticString = "$SCRATCH"

    /// The folder `$SCRATCH` stands for.
    var scratchFolder: String { cacheFolder + "/scratch" }

    /// `tokens` with `$SCRATCH` standing for the folder (made at its first use).
    func expandingScratch(_ tokens: [Token]) throws(ScriptError) -> [Token] {
        // Byte for byte first: Foundation's `contains` of a string, a search
        // with options, took ~4 k instructions a token, ~17 k of every send
        // (issue 31). What it finds holds these bytes, so it decides only then.
        guard tokens.contains(where: { $0.text.containsASCII(Self.scratchMark) && $0.text.contains(Self.scratchWord) }) else {
            return tokens
        }
        if output.scratchFolder == nil {
            do {
                try FileManager.default.createDirectory(atPath: scratchFolder, withIntermediateDirectories: true)
            } catch {
                throw ScriptError(.file, "cannot make the session's folder for \(Self.scratchWord): \(error.localizedDescription)")
            }
            // From now on, what a step prints shows it as $SCRATCH.
            output.scratchFolder = scratchFolder
        }
        return tokens.map { token in
            var token = token
            token.text = token.text.replacingOccurrences(of: Self.scratchWord, with: scratchFolder)
            return token
        }
    }

    // MARK: The command context

    /// What a command's handler gets (``CommandContext``): the session's
    /// parts, never this interpreter; `run FILE` runs its lines through ``execute(_:)``.
    var context: CommandContext {
        CommandContext(
            stage: world, handles: handles, state: state, output: output, log: log, onlineEpoch: onlineEpoch, cacheFolder: cacheFolder,
            table: table, helpWidth: options.width, runLine: { self.execute($0) })
    }

    // MARK: The parts' state, as the explorer, the recorder and tests read it

    var clients: [ClientObject] { handles.clients }
    var current: ClientObject! { handles.current }
    var objects: ObjectRegistry { handles.objects }
    /// The recorder of this session, for `sessions` and `record stop`; nil when not recording.
    var recording: (any RecordingControl)? {
        get { state.recording }
        set { state.recording = newValue }
    }
}

extension Interpreter {
    /// The stage the options ask for: a tape, a server, or the embedded world.
    static func makeStage(_ options: WorkbenchOptions) throws -> any Stage {
        if let tape = options.tape {
            return try TapeStage(
                seed: options.seed, serverURL: options.serverURL ?? "tape", source: tape, interruption: options.interruption)
        }
        if let url = options.serverURL {
            return try ServerStage(url: url, seed: options.seed, app: options.app ?? .demo, interruption: options.interruption)
        }
        return try EmbeddedStage(seed: options.seed, interruption: options.interruption)
    }
}
