import ArgumentParser
import Foundation
import Workbench

/// `chatbench export SESSION FILE` and `export SESSION --bundle FILE` (SPEC W8, W9).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recorded session as a transcript, or as a self-contained bundle.",
        discussion: """
            `export SESSION FILE` writes a transcript (`> ` inputs, expected output after \
            them) that `chatbench test FILE` runs. SESSION may be an app's diagnostics file \
            (a field recording): its calls become commands, the other side's messages `agent` \
            lines, the network's failures `net` lines, and the states the device saw `expect` \
            lines, run in the embedded world; the file's header says what could not be inferred. `export SESSION --bundle FILE` writes one \
            SQLite file holding the session, its events and tape, and where it was recorded \
            (tool version, seed, platform), which `chatbench replay FILE` replays anywhere. \
            Secrets appear only as placeholders.
            """
    )

    @Argument(help: ArgumentHelp("The session's id or name, or `last` (the newest).", valueName: "session"))
    var session: String

    @Argument(help: ArgumentHelp("The transcript to write.", valueName: "file"), completion: .file(extensions: ["chat"]))
    var file: String?

    @Option(help: ArgumentHelp("Write a self-contained SQLite bundle to this file instead.", valueName: "file"), completion: .file())
    var bundle: String?

    @Option(
        help: ArgumentHelp("Write an HTML sequence view of the session to this file instead.", valueName: "file"),
        completion: .file(extensions: ["html"]))
    var html: String?

    @Flag(help: "Overwrite FILE if it exists.")
    var force = false

    @Option(help: ArgumentHelp("The recording database.", valueName: "path"), completion: .file())
    var db: String?

    func validate() throws {
        if [file, bundle, html].compactMap({ $0 }).count != 1 {
            throw ValidationError("give one of a transcript FILE, --bundle FILE or --html FILE")
        }
    }

    func run() throws {
        let (store, recorded) = try SessionSource.open(session, db: db)
        let target: SessionExport.Target
        if let bundle {
            target = .bundle(bundle)
        } else if let html {
            target = .html(html)
        } else if let file {
            target = .transcript(file)
        } else {
            return
        }
        do {
            let (notes, done) = try SessionExport.write(recorded, of: store, source: session, to: target, force: force)
            for note in notes { Terminal.error("chatbench: note: \(note)") }
            Terminal.write(done + "\n")
        } catch {
            SessionSource.fail(error.message)
        }
    }
}
