/// What the current step prints, each line with what it is: the lines a
/// command prints, then (after the step's events) the lines saying how a
/// wait or a settle ended, and the handle of the object the step made.
///
/// The interpreter empties it at the start of each step and writes it out
/// at the end; a command prints into it through its ``CommandContext``.
// @unchecked Sendable: touched only by the thread running the step (the
// one holding the stage, as for ``Interpreter``).
final class StepOutput: @unchecked Sendable {
    /// Lines printed by the current step.
    var lines: [StyledText] = []
    /// Lines printed by the current step after its events (how a wait or
    /// settle ended).
    var trailer: [StyledText] = []
    /// The handle of the object the current step made (``printMade(_:_:first:)``).
    var made: String?
    /// The session's `$SCRATCH` folder once a line used it: its path is
    /// printed as `$SCRATCH`, so that what a step prints is the same on
    /// every run (``Interpreter/expandingScratch(_:)``).
    var scratchFolder: String?

    init() {}

    /// `text` as printed: the scratch folder's path written back as `$SCRATCH`.
    func shown(_ text: String) -> String {
        guard let scratchFolder, text.contains(scratchFolder) else { return text }
        return text.replacingOccurrences(of: scratchFolder, with: Interpreter.scratchWord)
    }

    /// Empties it for a new step.
    func clear() {
        lines = []
        trailer = []
        made = nil
    }

    /// Prints a line of the step's output. Control characters that came in
    /// with the input (an escape sequence typed or piped into an error
    /// message's echo) are written escaped, as `\u001b`: output never drives
    /// the terminal (issue 30). `style` says what the line is (an error, an
    /// `ok:`), for the terminal's edge to colour: it never reads the text.
    func print(_ line: String, as style: OutputStyle? = nil) { lines.append(StyledText(Format.escapingControls(shown(line)), as: style)) }

    /// Prints lines made as text elsewhere (help's pages, a recording's
    /// listing) as they are, plain: what they are is not known here, and
    /// is never guessed from their text.
    func print(lines printed: [String]) { lines += printed.map { StyledText(shown($0)) } }

    /// Prints lines made elsewhere with what their parts are (a recording's
    /// listing: its times, its statuses). A line that shows the scratch
    /// folder is printed plain, as `$SCRATCH`: its styles were for its text.
    func print(styledLines printed: [StyledText]) {
        lines += printed.map { shown($0.text) == $0.text ? $0 : StyledText(shown($0.text)) }
    }

    /// Prints `NAME = WHAT` for the object the step made, `name` being its
    /// handle or the name the line gave it, and keeps the name as the
    /// step's ``StepResult/made``. `first`: before what the step printed so far.
    func printMade(_ name: String, _ what: String, first: Bool = false) {
        made = name
        let line = StyledText(Format.escapingControls(shown("\(name) = \(what)")))
        if first { lines.insert(line, at: 0) } else { lines.append(line) }
    }

    /// Prints `line`, with what its parts are, after the events of the step.
    func printAfterEvents(_ line: StyledText) { trailer.append(escaped(line)) }

    /// Prints `line`, made here with what its parts are: each part shown
    /// and its control characters escaped, as ``print(_:as:)`` does.
    func print(styled line: StyledText) { lines.append(escaped(line)) }

    private func escaped(_ line: StyledText) -> StyledText {
        var shownLine = StyledText()
        for part in line.parts { shownLine.append(Format.escapingControls(shown(part.text)), as: part.style) }
        return shownLine
    }

    /// Prints `line` after the events of the step; `style` as for ``print(_:as:)``.
    func printAfterEvents(_ line: String, as style: OutputStyle? = nil) { printAfterEvents(StyledText(line, as: style)) }
}
