import ArgumentParser
import Foundation
import Workbench

/// `chatbench repl`, the default: the REPL on the embedded backend, or with
/// piped input the same commands read line by line with no prompt.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Open the REPL (the default subcommand).",
        discussion: """
            At a terminal: line editing, history (kept in $XDG_STATE_HOME/chatbench), \
            Ctrl-R search and Tab completion. With piped input: no prompt and no banner, \
            and the exit status is the script's (1: an expect failed, 2: a line could \
            not be understood). Every session is recorded into \
            $XDG_DATA_HOME/chatbench/sessions.sqlite (or --db PATH) unless --no-record.
            """
    )

    @OptionGroup var world: WorldOptions

    @Flag(help: "Do not run the start-up file ($XDG_CONFIG_HOME/chatbench/rc.chat, by default ~/.config/chatbench/rc.chat).")
    var noRc = false

    @Flag(
        help: "Do not page long output at a terminal ($CHATBENCH_PAGER, $PAGER or less -FRX; an empty variable turns it off too)."
    )
    var noPager = false

    @Option(
        name: .customShort("c"),
        help: ArgumentHelp("Run this one line of the language and exit; the exit status is a script's.", valueName: "command"))
    var command: String?

    func run() throws {
        if let command {
            let input: ScriptInput
            do {
                input = try ScriptInput.text(command + "\n", path: "-c")
            } catch {
                Terminal.error("chatbench: \(error.message)")
                throw ExitCode(2)
            }
            throw ExitCode(try ScriptInputRunner.run(input, path: "-c", world: world, kind: .script))
        }
        guard Terminal.stdinIsTerminal else {
            // Piped input is read as `run -` reads it: a transcript is checked.
            let input: ScriptInput
            do {
                input = try ScriptInput.lines(path: "<stdin>") { Swift.readLine() }
            } catch {
                Terminal.error("chatbench: \(error.message)")
                throw ExitCode(2)
            }
            throw ExitCode(try ScriptInputRunner.run(input, path: "<stdin>", world: world, kind: .script))
        }
        var options = world.workbenchOptions(interactive: true)
        options.width = Terminal.width
        let session = try world.makeSession(options)
        let engine = try world.engine(for: session, kind: .repl)
        let startupFile = noRc ? nil : InteractiveLoop.startupFilePath(environment: ProcessInfo.processInfo.environment)
        MainActor.assumeIsolated {
            let pager = noPager || isatty(STDOUT_FILENO) != 1 ? nil : Pager.fromEnvironment(ProcessInfo.processInfo.environment)
            InteractiveLoop(engine: engine, startupFile: startupFile, pager: pager).run()
            (engine as? RecordedEngine)?.finish()
        }
    }
}
