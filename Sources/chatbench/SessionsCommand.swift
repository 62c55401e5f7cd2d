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
        // Named here: a name the parser derives from the type costs every
        // start-up of chatbench a String(describing:) of it (conformance
        // look-ups, 5.5M instructions).
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List recorded sessions: id, name, start, steps, kind, status.",
            discussion: "Status `unfinished` marks a session still running, or whose process was killed."
        )

        @Argument(
            help: ArgumentHelp("A recording database or a bundle file to list (default: --db's).", valueName: "file"),
            completion: .file())
        var file: String?

        @OptionGroup var options: Options

        func validate() throws {
            if file != nil, options.db != nil {
                throw ValidationError("give the file to list or --db, not both")
            }
        }

        func run() throws {
            let path = file ?? options.db ?? RecordingStore.defaultPath()
            if let file, !FileManager.default.fileExists(atPath: file) {
                SessionSource.fail("no such file: \(file)")
            }
            let sessions: [RecordedSession]
            do {
                // A file named here may be a bundle or an app's diagnostics
                // file: read as it is, never switched to WAL.
                sessions = try RecordingStore(path: path, create: false, bundle: file != nil).sessions()
            } catch {
                SessionSource.fail(error.message)
            }
            if options.json {
                Terminal.write(try JSONOutput.encode(sessions.map(Listed.init)) + "\n")
            } else {
                for line in SessionListing.table(sessions) { Terminal.write(Colour.paint(line) + "\n") }
            }
        }
    }

    /// A session as `sessions --json` lists it: its fields, and the
    /// status the table shows (`ok`, `expect failed`, `script error`, with
    /// `, unfinished` for a session still running or whose process was
    /// killed), and `unfinished` alone.
    struct Listed: Encodable {
        var session: RecordedSession

        private enum Keys: String, CodingKey { case shownStatus, unfinished }

        func encode(to encoder: any Encoder) throws {
            try session.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(SessionListing.status(session), forKey: .shownStatus)
            try container.encode(session.ended == nil, forKey: .unfinished)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one recorded session's steps with their virtual times.",
            discussion: "ID is a session's id or name, `last` (the newest), or a bundle file."
        )

        @Argument(help: ArgumentHelp("The session's id or name, or a bundle file.", valueName: "id"))
        var id: String

        @Flag(help: "Draw the session as client ↔ server exchanges and watcher emissions over virtual time.")
        var timeline = false

        @Flag(
            help: "Print the traffic tape of a server-mode session: each HTTP exchange and WebSocket frame, with its time, step and device."
        )
        var traffic = false

        @Option(
            help: ArgumentHelp("Write the session as one self-contained HTML sequence view to this file.", valueName: "file"),
            completion: .file(extensions: ["html"]))
        var html: String?

        @OptionGroup var options: Options

        func run() throws {
            let (store, session) = try SessionSource.open(id, db: options.db)
            if let html {
                do { try SessionExport.writeHTML(of: session, from: store, to: html) } catch { SessionSource.fail(error.message) }
                Terminal.write("wrote session \(session.label) to \(html)\n")
                return
            }
            let steps: [RecordedStep]
            let tape: [RecordedTraffic]?
            do {
                steps = try store.steps(of: session.id)
                tape = traffic || timeline ? try store.traffic(of: session.id) : nil
            } catch {
                SessionSource.fail(error.message)
            }
            if options.json {
                struct Shown: Encodable {
                    var session: RecordedSession
                    var steps: [RecordedStep]
                    var traffic: [RecordedTraffic]?
                }
                Terminal.write(try JSONOutput.encode(Shown(session: session, steps: steps, traffic: traffic ? tape : nil)) + "\n")
                return
            }
            let lines =
                if timeline {
                    Timeline.draw(session, steps: steps, traffic: tape ?? []).map { StyledText($0) }
                } else if let tape {
                    TrafficListing.lines(session, steps: steps, traffic: tape).map { StyledText($0) }
                } else {
                    SessionListing.transcript(session, steps: steps)
                }
            for line in lines { Terminal.write(Colour.paint(line) + "\n") }
        }
    }
}
