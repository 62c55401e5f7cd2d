import ArgumentParser
import Foundation
import Workbench

/// Options shared by every subcommand that runs a workbench session.
struct WorldOptions: ParsableArguments {
    @Option(help: "Seed of the embedded world's random choices.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp("Record into this SQLite database instead of the default one.", valueName: "path"),
        completion: .file())
    var db: String?

    @Flag(help: "Do not record this session.")
    var noRecord = false

    @Option(help: ArgumentHelp("Name the recorded session (replay and sessions show accept the name).", valueName: "name"))
    var name: String?

    @Flag(help: "Stop at the first failing `expect` or line that cannot be understood.")
    var bail = false

    @Option(
        help: ArgumentHelp(
            "Run against a running `chatbench serve` (real sockets, real time) instead of the embedded backend.", valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "With --server: play this app of the server's (chatbench apps add), its secret in CHATBENCH_APP_SECRET; default the demo app.",
            valueName: "key"))
    var apiKey: String?

    /// The environment variable that holds the secret of `--api-key`'s app:
    /// never an argument, which `ps` and the shell's history show.
    static let appSecretVariable = "CHATBENCH_APP_SECRET"

    /// The app `--api-key` names, with its secret from the environment;
    /// nil for the demo app. Checked when a session starts, not by the
    /// parser: ``arity(_:)`` parses options alone, without the others.
    func app() throws(ValidationError) -> AppCredentials? {
        guard let apiKey else { return nil }
        guard server != nil else {
            throw ValidationError("--api-key needs --server: the embedded world has the demo app (server app new KEY makes another)")
        }
        guard !apiKey.isEmpty else { throw ValidationError("--api-key is empty") }
        guard let secret = ProcessInfo.processInfo.environment[Self.appSecretVariable], !secret.isEmpty else {
            throw ValidationError("--api-key \(apiKey) needs the app's secret in \(Self.appSecretVariable) (never in an argument)")
        }
        return AppCredentials(apiKey: apiKey, secret: secret)
    }

    /// How many values the option `name` takes (`--seed`: 1, `--bail`: 0),
    /// as the parser itself decides; nil when it is no option of these.
    static func arity(_ name: String) -> Int? {
        if (try? parse([name])) != nil { return 0 }
        if (try? parse([name, "1"])) != nil { return 1 }
        return nil
    }

    /// The engine's options for these flags.
    func workbenchOptions(interactive: Bool) -> WorkbenchOptions {
        var options = WorkbenchOptions()
        options.seed = seed
        options.bail = bail
        options.interactive = interactive
        options.serverURL = server
        options.interruption = Interrupt.interruption
        return options
    }

    /// A session with these options; when it cannot start (a server that
    /// does not answer), one line on standard error and exit status 2.
    func makeSession(_ options: WorkbenchOptions) throws -> WorkbenchSession {
        var options = options
        do {
            options.app = try app()
        } catch {
            Terminal.error("chatbench: \(error.message)")
            throw ExitCode(2)
        }
        do {
            return try WorkbenchSession(options: options)
        } catch {
            Terminal.error("chatbench: \(error)")
            throw ExitCode(2)
        }
    }
}
