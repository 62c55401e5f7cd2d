import ArgumentParser
import Workbench

/// `chatbench run FILE`: runs a script or a transcript, or `-` for standard input.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script or a transcript file.",
        discussion: """
            Runs every line of FILE (`-`: standard input) and prints what each prints. \
            A transcript (lines starting with `> ` are inputs, followed by their expected \
            output) runs its inputs and then checks the output, printing a diff on standard \
            error. A `# seed: N` line at the top of FILE wins over --seed. \
            Exit status: 0 when every step was ok (and a transcript's output matched), \
            1 if an expect failed or a transcript's output differed, 2 if a line could not \
            be understood or FILE could not be read.
            """
    )

    @Argument(help: ArgumentHelp("The script or transcript to run, or - for standard input.", valueName: "file"),
              completion: .file(extensions: ["chat"]))
    var file: String

    @OptionGroup var world: WorldOptions

    func run() throws {
        var transcript: Transcript?
        if file != "-" {
            do {
                let lines = try ScriptFile(path: file).lines
                transcript = try Transcript.parse(lines.map { $0 + "\n" }.joined(), path: file)
            } catch let error as ScriptFile.ReadError {
                Terminal.error(error.message)
                throw ExitCode(2)
            } catch let error as TranscriptError {
                Terminal.error("chatbench: \(error.message)")
                throw ExitCode(2)
            }
        }
        var options = world.workbenchOptions(interactive: false)
        if let seed = transcript?.seed { options.seed = seed }
        let session = try world.makeSession(options)
        let engine = try world.engine(for: session, kind: "script")
        defer { (engine as? RecordedEngine)?.finish() }
        let loop = ScriptLoop(engine: engine, bail: world.bail)
        guard let transcript else {
            throw ExitCode(loop.run { Swift.readLine() })
        }
        guard transcript.kind == .transcript else {
            var iterator = transcript.blocks.map(\.input).makeIterator()
            throw ExitCode(loop.run { iterator.next() })
        }
        let result = TranscriptRunner.check(transcript, path: file, session: session, execute: engine.execute, onStep: { _, step in
            Terminal.write(step.output)
        }, conformance: options.serverURL != nil)
        Terminal.flush()
        TranscriptRunner.report(result).forEach(Terminal.error)
        throw ExitCode(result.passed ? 0 : 1)
    }
}
