import ArgumentParser
import Foundation
import Workbench

/// `chatbench shrink FILE|SESSION`: a smallest script or transcript that
/// fails the same way (SPEC W13).
struct ShrinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink",
        abstract: "Reduce a failing script, transcript or recorded session to a smallest one that fails the same way.",
        discussion: """
            A script fails the same way when the same expect line fails first finding the same \
            value, or the same line is not understood, or the same invariant is broken (see \
            chatbench explore; a crash too: each of its trials runs in a child process). A \
            transcript that fails as a test (chatbench test) fails the same way when the same \
            step fails first finding the same: an expect, output that differs from the \
            expected (its first line missing and first line found instead), or a crash (its \
            trials run in a child process too); the steps before it \
            expect what they print then. A transcript that passes as a test is shrunk as a \
            script, by its invariants. A recorded session (its id or name, `last`, a bundle or \
            an app's diagnostics file) is exported as a transcript (as chatbench export writes \
            it) and shrunk as one: its failure is the first step whose output differs from the \
            recording, or a failed expect. Lines are removed by delta debugging, then numbers \
            made smaller (fewer failures, shorter durations). A trial still running after \
            --timeout is killed and fails as a hang (a script's: no hang; a transcript's: the \
            step hung), so a shrink ends whatever its trials do. The result is written to -o FILE, \
            else printed; a session's to session-ID-shrunk.chat (a recording file's to \
            NAME-shrunk.chat) in the current folder. Exit status 1 when the input does not \
            fail at all.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The failing script or transcript, or a recorded session: its id or name, `last`, a bundle or an app's diagnostics file.",
            valueName: "file|session"),
        completion: .file(extensions: ["chat"]))
    var file: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Write the smallest script or transcript here.", valueName: "file"), completion: .file())
    var output: String?

    @Option(help: "The world's seed (default: the file's `# seed: N`, else 1).")
    var seed: UInt64?

    @Flag(help: "Check only the invariants, not the script's own expect lines.")
    var noExpects = false

    @Option(help: ArgumentHelp("The recording database (for a SESSION named by id or name).", valueName: "path"), completion: .file())
    var db: String?

    @Option(
        help: ArgumentHelp(
            "Kill a trial run still running after this many seconds of wall time: it fails as a hang (0: no limit).", valueName: "seconds"))
    var timeout: Double = 60

    func validate() throws { try RestartingWorker.validate(timeout: timeout) }

    /// How long a trial may run (nil: no limit).
    private var limit: Duration? { RestartingWorker.limit(timeout: timeout) }

    func run() throws {
        let started = Date()
        guard Self.isScriptFile(file) else { return try shrinkSession(started: started) }
        let transcript = ExploreCommand.load(file)
        if let reason = transcript.serverOnly {
            SessionSource.fail("\(file) runs only against a server (# server-only: \(reason)): shrink runs the embedded world")
        }
        if transcript.kind == .transcript, !noExpects {
            if let done = try shrinkTranscript(transcript, from: file, started: started) {
                Terminal.error(done)
                return Terminal.flush()
            }
        }
        let lines = ExploreCommand.inputs(of: file)
        var shrinker = Shrinker()
        shrinker.seed = seed ?? transcript.seed ?? 1
        // A transcript that passes as a test fails only by an invariant:
        // a line it shows failing is no failure.
        shrinker.checkExpects = !noExpects && transcript.kind == .script
        // Each trial in a worker: a trial that crashes is a failure too.
        let worker = RestartingWorker(
            arguments: ExploreWorker.arguments(file: nil, seed: shrinker.seed, faults: nil, noExpects: !shrinker.checkExpects),
            limit: limit)
        defer { worker.finish() }
        guard let result = try shrinker.shrink(lines, check: worker.check) else {
            Terminal.error("chatbench: \(file) does not fail: nothing to shrink")
            throw ExitCode(1)
        }
        try write("# seed: \(shrinker.seed)\n# shrunk from \(file): \(result.signature)\n" + result.lines.joined(separator: "\n") + "\n")
        if !result.confirmed { Terminal.error("chatbench: note: " + ExploreCommand.unconfirmedHang(trials: result.trials)) }
        Terminal.error("from \(lines.count) lines to \(result.lines.count) in \(result.trials) trial runs, " + Self.seconds(since: started))
        Terminal.flush()
    }

    /// A recorded session: exported as a transcript (as `export` writes
    /// it), shrunk as one, written as a `.chat` file.
    private func shrinkSession(started: Date) throws {
        let (store, recorded) = try SessionSource.open(file, db: db)
        if recorded.mode == .server {
            SessionSource.fail(
                "session \(recorded.label) was recorded against a server: its transcript would run in the embedded world and fail "
                    + "for that alone; replay it from its tape (chatbench replay \(file) --tape)")
        }
        let exported = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-shrink-\(UUID().uuidString).chat").path
        defer { try? FileManager.default.removeItem(atPath: exported) }
        do {
            let (notes, _) = try Transcript.write(recorded, of: store, source: file, to: exported, force: true)
            for note in notes { Terminal.error("chatbench: note: \(note)") }
        } catch {
            SessionSource.fail(error.message)
        }
        let transcript = ExploreCommand.load(exported)
        let name = "session \(recorded.label)" + (RecordingStore.looksLikeFile(file) ? " of \(file)" : "")
        let target = output ?? Self.defaultOutput(for: file, session: recorded)
        guard let done = try shrinkTranscript(transcript, from: name, started: started, to: target) else {
            Terminal.error("chatbench: \(name) does not fail: nothing to shrink (its transcript passes: it replays as recorded)")
            throw ExitCode(1)
        }
        Terminal.write("shrunk \(name): \(done); wrote \(target) (run it with: chatbench test \(target))\n")
        Terminal.flush()
    }

    /// Shrinks a transcript that fails as a test and writes the result (to
    /// `target`, else -o, else standard output); nil when it passes. What
    /// it did, in words (`from 40 steps to 3 in 57 trial runs, 1.2 s`).
    private func shrinkTranscript(_ transcript: Transcript, from source: String, started: Date, to target: String? = nil) throws -> String?
    {
        var shrinker = TranscriptShrinker()
        shrinker.seed = seed ?? transcript.seed ?? 1
        // Each trial in a worker, as a script's: a trial that crashes fails
        // with the crash as its signature, and the shrink goes on.
        let worker = RestartingWorker(
            arguments: ExploreWorker.arguments(file: nil, seed: shrinker.seed, faults: nil, noExpects: false), limit: limit)
        defer { worker.finish() }
        guard let result = try shrinker.shrink(transcript, trial: { steps, _ in try worker.trial(steps) }) else { return nil }
        var shrunk = result.transcript
        shrunk.header.insert("# shrunk from \(source): \(result.signature)", at: min(1, shrunk.header.count))
        try write(shrunk.rendered(), to: target)
        return "from \(TranscriptShrinker.commands(of: transcript).count) steps to \(shrunk.blocks.count) in \(result.trials) trial runs, "
            + Self.seconds(since: started)
    }

    private func write(_ text: String, to target: String? = nil) throws {
        if let path = target ?? output {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            Terminal.write(text)
        }
    }

    /// Whether FILE is a script or transcript, not a recording: a `.chat`
    /// (or Markdown) file, or any existing file that is not SQLite.
    static func isScriptFile(_ path: String) -> Bool {
        if path.hasSuffix(".chat") || path.hasSuffix(".md") { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 16)) ?? Data()
        return magic != Data("SQLite format 3\0".utf8)
    }

    /// `session-12-shrunk.chat`, or for a recording file `ticket-shrunk.chat`.
    static func defaultOutput(for reference: String, session: RecordedSession) -> String {
        guard RecordingStore.looksLikeFile(reference) else { return "session-\(session.id)-shrunk.chat" }
        return URL(fileURLWithPath: reference).deletingPathExtension().lastPathComponent + "-shrunk.chat"
    }

    static func seconds(since started: Date) -> String { String(format: "%.1f s", Date().timeIntervalSince(started)) }
}
