import ArgumentParser
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

    func run() throws {
        let interactive = Terminal.stdinIsTerminal
        let session = try world.makeSession(world.workbenchOptions(interactive: interactive))
        let engine = try world.engine(for: session, kind: interactive ? "repl" : "script")
        guard interactive else {
            let status = ScriptLoop(engine: engine, bail: world.bail).run { Swift.readLine() }
            (engine as? RecordedEngine)?.finish()
            throw ExitCode(status)
        }
        MainActor.assumeIsolated {
            InteractiveLoop(engine: engine).run()
            (engine as? RecordedEngine)?.finish()
        }
    }
}
