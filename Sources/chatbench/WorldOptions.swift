import ArgumentParser
import Workbench

/// Options shared by every subcommand that runs a workbench session.
struct WorldOptions: ParsableArguments {
    @Option(help: "Seed of the embedded world's random choices.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Record into this SQLite database instead of the default one.", valueName: "path"),
            completion: .file())
    var db: String?

    @Flag(help: "Do not record this session.")
    var noRecord = false

    @Option(help: ArgumentHelp("Name the recorded session (replay and sessions show accept the name).", valueName: "name"))
    var name: String?

    @Flag(help: "Stop at the first failing `expect` or line that cannot be understood.")
    var bail = false

    @Option(help: ArgumentHelp("Use a running chatbench server instead of the embedded backend.", valueName: "url"))
    var server: String?

    /// The engine's options for these flags.
    func workbenchOptions(interactive: Bool) -> WorkbenchOptions {
        var options = WorkbenchOptions()
        options.seed = seed
        options.bail = bail
        options.interactive = interactive
        return options
    }

    /// Fails with status 2 when an option asks for something not built yet.
    func checkSupported() throws {
        if server != nil {
            Terminal.error("chatbench: --server (the workbench against a running server) is not built yet: run without it for the embedded world; `chatbench serve` runs the server")
            throw ExitCode(2)
        }
    }
}
