import ArgumentParser
import Foundation

/// The `chatbench` command line: a REPL by default, and subcommands for
/// scripts, tests, recordings and the server (SPEC W10).
@main
struct Chatbench: ParsableCommand {
    static let version = "0.1.0"

    /// Flags swift-argument-parser handles itself, before any subcommand.
    static let parsersOwnFlags: Set = ["--version", "--help", "-h", "--experimental-dump-help"]

    static let configuration = CommandConfiguration(
        commandName: "chatbench",
        abstract: "A workbench for exploring, recording and replaying a messaging SDK.",
        discussion: """
            With no subcommand, opens the REPL on the embedded backend. When standard \
            input is not a terminal, commands are read line by line with no prompt, \
            so `chatbench < script.chat` works; `chatbench -c "server users"` runs one \
            line and exits. Usage errors exit with status 2.

            The REPL's options (`repl --help`), before or after the subcommand:
              --seed <n>        Seed of the embedded world's random choices (default 1).
              --server <url>    Run against a running `chatbench serve`.
              --api-key <key>   With --server: play this app (its secret in
                                CHATBENCH_APP_SECRET); default the demo app.
              --no-record       Do not record this session.
              --db <path>       Record into this SQLite database.
              --name <name>     Name the recorded session.
              --bail            Stop at the first failing line.
              -c <command>      Run one line of the language and exit (as a script).
              --no-rc           Do not run the start-up file.
              --no-pager        Do not page long output at a terminal.
            """,
        version: "chatbench \(version)",
        subcommands: [
            ReplCommand.self,
            RunCommand.self,
            TestCommand.self,
            ExploreCommand.self,
            ShrinkCommand.self,
            ExploreWorkerCommand.self,
            ReplayCommand.self,
            SessionsCommand.self,
            ExportCommand.self,
            ServeCommand.self,
            AppsCommand.self,
        ],
        defaultSubcommand: ReplCommand.self
    )

    /// Options may come before the subcommand, and a mistyped subcommand
    /// gets a suggestion (see ``ArgumentOrder``).
    static func main() {
        if let line = versionLine(for: Array(CommandLine.arguments.dropFirst())) {
            print(line)
            return
        }
        let names = (configuration.subcommands.map { $0._commandName }) + ["help"]
        // The parser's own flags are no option of the workbench: asking
        // WorldOptions about them takes two trial parses (4M of the 49M
        // instructions `--version` cost).
        let arity: (String) -> Int? = { parsersOwnFlags.contains($0) ? nil : WorldOptions.arity($0) }
        switch ArgumentOrder.normalize(Array(CommandLine.arguments.dropFirst()), subcommands: names, arity: arity) {
        case .arguments(let arguments): run(arguments)
        case .unknownSubcommand(let line):
            Terminal.error(line)
            Foundation.exit(2)
        }
    }

    /// Parses and runs as the parser's own `main` does, but a usage error
    /// (an unknown option, a missing or bad value) exits with status 2, as
    /// every subcommand's help says, not the parser's 64.
    static func run(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Terminal.error(fullMessage(for: error))
            Foundation.exit(2)
        }
    }

    /// What `chatbench --version` prints, when the arguments are just that:
    /// the parser's own answer (a test holds them equal), given before the
    /// parser builds its tree of every subcommand and option, which was 30M
    /// of the 52M instructions `--version` cost.
    static func versionLine(for arguments: [String]) -> String? {
        arguments == ["--version"] ? configuration.version : nil
    }
}
