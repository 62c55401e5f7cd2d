import ArgumentParser
import Workbench

/// `chatbench run FILE`: runs a script, or `-` for standard input.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script file.",
        discussion: """
            Runs every line of FILE (`-`: standard input) and prints what each prints. \
            Exit status: 0 when every step was ok, 1 if an expect failed, 2 if a line \
            could not be understood or FILE could not be read.
            """
    )

    @Argument(help: ArgumentHelp("The script to run, or - for standard input.", valueName: "file"),
              completion: .file(extensions: ["chat"]))
    var file: String

    @OptionGroup var world: WorldOptions

    func run() throws {
        try world.checkSupported()
        var lines: [String]?
        if file != "-" {
            do {
                lines = try ScriptFile(path: file).lines
            } catch {
                Terminal.error(error.message)
                throw ExitCode(2)
            }
        }
        let session = try WorkbenchSession(options: world.workbenchOptions(interactive: false))
        let loop = ScriptLoop(engine: session, bail: world.bail)
        let status: Int32
        if var iterator = lines?.makeIterator() {
            status = loop.run { iterator.next() }
        } else {
            status = loop.run { Swift.readLine() }
        }
        throw ExitCode(status)
    }
}
