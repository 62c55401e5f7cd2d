import ArgumentParser
import ChatBackend
import ChatServer
import Foundation

/// `chatbench apps [list|add KEY]` (issue 26): a server's apps, made by its
/// operator. Without it a server had only the demo app, whose secret is
/// published.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List a server's apps, or add one with a secret of its own.",
        discussion: """
            Works on the server's database file, whether or not `chatbench serve` is running on \
            it: a running server answers a new app's requests at once. A file that is another \
            program's, or damaged, is refused before anything is written to it. Start a server with \
            apps of its own with `serve --no-demo-app`: the demo app's secret is published. The \
            workbench plays an app with `chatbench --server URL --api-key KEY`, its secret in \
            CHATBENCH_APP_SECRET.
            """,
        subcommands: [List.self, Add.self],
        defaultSubcommand: List.self
    )

    /// The one option of both subcommands.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The server's SQLite database.", valueName: "path"), completion: .file())
        var db: String = "chatbench-server.sqlite"
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the apps: API key, users, conversations, and whether anyone may sign in by user id alone.",
            discussion: "Secrets are never shown."
        )

        @OptionGroup var options: Options

        @Flag(help: "Print as JSON.")
        var json = false

        func run() throws {
            guard FileManager.default.fileExists(atPath: options.db) else {
                Terminal.error("chatbench apps: no such file: \(options.db)")
                throw ExitCode(1)
            }
            // An empty file is a database nobody made yet: listing it does
            // not make one.
            let size = (try? FileManager.default.attributesOfItem(atPath: options.db)[.size] as? NSNumber)?.intValue ?? 0
            guard size > 0 else {
                Terminal.write(json ? "[]\n" : "no apps in \(options.db)\n")
                return
            }
            let apps: [AppSummary]
            do {
                apps = try AppsCommand.open(options.db).apps()
            } catch let refusal as AppAdministration.Refusal {
                Terminal.error("chatbench apps: \(refusal)")
                throw ExitCode(1)
            }
            if json {
                Terminal.write(try JSONOutput.encode(apps.map(Listed.init)) + "\n")
                return
            }
            if apps.isEmpty { Terminal.write("no apps in \(options.db)\n") }
            for app in apps {
                Terminal.write(
                    "\(app.apiKey): \(count(app.users, "user")), \(count(app.conversations, "conversation")); "
                        + "sign-in by user id alone: \(app.settings.allowUserIdOnly ? "on" : "off")\n")
            }
        }

        private func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }

        /// An app as `apps list --json` gives it.
        struct Listed: Encodable {
            var apiKey: String
            var users: Int
            var conversations: Int
            var allowUserIdOnly: Bool
            var requireAccessToken: Bool

            init(_ app: AppSummary) {
                apiKey = app.apiKey
                users = app.users
                conversations = app.conversations
                allowUserIdOnly = app.settings.allowUserIdOnly
                requireAccessToken = app.settings.requireAccessToken
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an app; print its new secret, once.",
            discussion: """
                The secret is the app's X-App-Secret (its backend's credential) and the HS256 key of \
                its users' JWTs. A new one (32 random bytes, in hex) is printed alone on standard \
                output, so `SECRET=$(chatbench apps add KEY)` keeps it; what was done goes to \
                standard error. --secret-stdin reads a secret of your own (at least 32 bytes) from \
                standard input instead: never give a secret as an argument, where `ps` and the \
                shell's history would show it. The app's settings are the defaults, but for sign-in \
                by user id alone, off unless --allow-user-id-only; change them with \
                POST /v1/app/settings.
                """
        )

        @Argument(help: ArgumentHelp("The app's API key: printable ASCII without spaces.", valueName: "key"))
        var key: String

        @OptionGroup var options: Options

        @Flag(help: "Read the app's secret from the first line of standard input instead of making one.")
        var secretStdin = false

        @Flag(help: "Let anyone with the API key sign in as any of the app's users by id alone (SPEC A10; the demo app's setting).")
        var allowUserIdOnly = false

        func run() throws {
            let secret: String
            if secretStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    Terminal.error("chatbench apps add: --secret-stdin read no secret from standard input")
                    throw ExitCode(1)
                }
                secret = line
            } else {
                secret = AppAdministration.newSecret()
            }
            let apps = try AppsCommand.open(options.db)
            do {
                try apps.add(apiKey: key, secret: secret, allowUserIdOnly: allowUserIdOnly)
            } catch {
                Terminal.error("chatbench apps add: \(error)")
                throw ExitCode(1)
            }
            Terminal.error(
                "chatbench apps add: app \(key) added to \(options.db); sign-in by user id alone: \(allowUserIdOnly ? "on" : "off")"
                    + (secretStdin ? "" : "; its secret follows, shown this once"))
            if !secretStdin { Terminal.write(secret + "\n") }
        }
    }

    /// The administration of the file, or exit 1 with the reason.
    static func open(_ path: String) throws -> AppAdministration {
        do {
            return try AppAdministration(databasePath: path)
        } catch {
            Terminal.error("chatbench apps: \(error)")
            throw ExitCode(1)
        }
    }
}
