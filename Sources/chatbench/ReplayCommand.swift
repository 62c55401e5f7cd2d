import ArgumentParser
import Foundation
import Workbench

/// `chatbench replay SESSION|FILE` (SPEC W7, W9).
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded session and compare its output.",
        discussion: """
            Re-runs the session's inputs in a fresh world with its recorded seed and \
            compares each step's output with the recording. On the first difference it \
            prints the step, its input and a diff, and exits 1. --update re-records the \
            session's output instead. SESSION is an id, a name or `last` in the recording database \
            (--db), or a bundle file written by `export SESSION --bundle FILE`. A session \
            recorded against a server (--server) replays with --tape: the server may be \
            stopped, every request is answered from the recorded traffic on the recorded \
            clock, outputs are compared as against a server (event lines and times aside), \
            and requests that differ from the tape are listed. An app's diagnostics file (a \
            field recording) always replays from its tape: a fresh SDK client makes the app's \
            calls again on the device's clock, and the first call whose events (states, \
            emissions, warnings) differ from the device's is the divergence.
            """
    )

    @Argument(help: ArgumentHelp("A session id, name or `last` from the recording database, or a bundle file.", valueName: "session"))
    var session: String

    @Flag(help: "Re-record the session's output instead of comparing it.")
    var update = false

    @Flag(help: "Replay a server-mode session offline from its traffic tape.")
    var tape = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(
        help: ArgumentHelp("When the replay diverges, write its HTML sequence view into this folder.", valueName: "dir"),
        completion: .directory)
    var htmlOnFailure: String?

    @OptionGroup var world: WorldOptions

    func run() throws {
        let (store, recorded) = try SessionSource.open(session, db: world.db)
        let outcome: ReplayOutcome
        do {
            outcome = try Replayer.replay(recorded, of: store, update: update, tape: tape, keepTraffic: htmlOnFailure != nil)
        } catch {
            SessionSource.fail(error.message)
        }
        if let htmlOnFailure, !outcome.identical, !update {
            let name = "replay-session-\(recorded.id).html"
            let view = SequenceView(session: recorded, steps: outcome.steps, traffic: outcome.traffic)
            let path = HTMLFile.write(SequenceHTML.render(view), into: htmlOnFailure, name: name)
            Terminal.error("chatbench: the diverging replay's sequence view: \(path)")
        }
        if json {
            Terminal.write(try JSONOutput.encode(ReplayReport(outcome, updated: update)) + "\n")
        } else {
            for note in outcome.notes { Terminal.error("chatbench: note: \(note)") }
            for line in outcome.styledReport(update: update, tape: tape) {
                Terminal.write(Colour.paint(StyledText.line(line.text, as: line.style)))
            }
        }
        throw ExitCode(outcome.identical || update ? 0 : 1)
    }
}

/// `replay --json`.
struct ReplayReport: Encodable {
    var session: Int64
    var name: String?
    var steps: Int
    var identical: Bool
    var updated: Bool
    var changedSteps: Int
    var divergence: Divergence?
    var notes: [String]
    /// `--tape`: requests that differ from the tape, and what it has that was never asked.
    var tapeDivergences: [String]
    var unusedTape: [String]

    struct Divergence: Encodable {
        var step: Int
        var input: String
        var diff: [String]
        var hint: String?
    }

    init(_ outcome: ReplayOutcome, updated: Bool) {
        session = outcome.session.id
        name = outcome.session.name
        steps = outcome.stepsRun
        identical = outcome.identical
        self.updated = updated && outcome.changedSteps > 0
        changedSteps = outcome.changedSteps
        divergence = outcome.divergence.map { Divergence(step: $0.step, input: $0.input, diff: $0.diff, hint: $0.hint) }
        notes = outcome.notes
        tapeDivergences = outcome.tapeDivergences
        unusedTape = outcome.unusedTape
    }
}
