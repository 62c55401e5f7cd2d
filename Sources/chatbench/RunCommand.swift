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

    @Argument(
        help: ArgumentHelp("The script or transcript to run, or - for standard input.", valueName: "file"),
        completion: .file(extensions: ["chat"]))
    var file: String

    @OptionGroup var world: WorldOptions

    func run() throws {
        let input: ScriptInput
        do {
            if file == "-" {
                input = try ScriptInput.lines(path: "<stdin>") { Swift.readLine() }
            } else {
                let lines = try ScriptFile(path: file).lines
                input = try ScriptInput.text(lines.map { $0 + "\n" }.joined(), path: file)
            }
        } catch let error as ScriptFile.ReadError {
            Terminal.error(error.message)
            throw ExitCode(2)
        } catch let error as TranscriptError {
            Terminal.error("chatbench: \(error.message)")
            throw ExitCode(2)
        }
        throw ExitCode(try ScriptInputRunner.run(input, path: file == "-" ? "<stdin>" : file, world: world, kind: .script))
    }
}
