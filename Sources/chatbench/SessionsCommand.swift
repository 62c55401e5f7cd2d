import ArgumentParser
import Foundation
import Workbench

/// `chatbench sessions [list|show ID]` (SPEC W5, W10).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List or show recorded sessions.",
        discussion: "Sessions are recorded into $XDG_DATA_HOME/chatbench/sessions.sqlite unless --db names another file.",
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    /// Options of both `sessions` subcommands.
    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The recording database.", valueName: "path"), completion: .file())
        var db: String?

        @Flag(help: "Print as JSON.")
        var json = false
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List recorded sessions: id, name, start, steps, kind, status.",
            discussion: "Status `unfinished` marks a session still running, or whose process was killed."
        )

        @OptionGroup var options: Options

        func run() throws {
            let path = options.db ?? RecordingStore.defaultPath()
            let sessions: [RecordedSession]
            do {
                sessions = try RecordingStore(path: path, create: false).sessions()
            } catch {
                SessionSource.fail(error.message)
            }
            if options.json {
                Terminal.write(try JSONOutput.encode(sessions) + "\n")
            } else {
                SessionListing.table(sessions).forEach { Terminal.write($0 + "\n") }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one recorded session's steps with their virtual times.",
            discussion: "ID is a session's id or name, or a bundle file."
        )

        @Argument(help: ArgumentHelp("The session's id or name, or a bundle file.", valueName: "id"))
        var id: String

        @Flag(help: "Draw the session as client ↔ server exchanges and watcher emissions over virtual time.")
        var timeline = false

        @OptionGroup var options: Options

        func run() throws {
            let (store, session) = try SessionSource.open(id, db: options.db)
            let steps: [RecordedStep]
            do {
                steps = try store.steps(of: session.id)
            } catch {
                SessionSource.fail(error.message)
            }
            if options.json {
                struct Shown: Encodable {
                    var session: RecordedSession
                    var steps: [RecordedStep]
                }
                Terminal.write(try JSONOutput.encode(Shown(session: session, steps: steps)) + "\n")
                return
            }
            let lines = timeline ? Timeline.draw(session, steps: steps) : SessionListing.transcript(session, steps: steps)
            lines.forEach { Terminal.write($0 + "\n") }
        }
    }
}
