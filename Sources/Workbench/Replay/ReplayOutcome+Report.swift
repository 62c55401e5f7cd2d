extension ReplayOutcome {
    /// What `replay` prints about this outcome, line by line, on the
    /// command line and at the prompt alike: replayed and identical, or
    /// re-recorded, or where it diverged, as a diff. `wallTime`: say how
    /// long it took (the REPL says so only with `timing on`, so that its
    /// output stays the same from run to run).
    package func report(update: Bool, tape: Bool, wallTime: Bool = true) -> [String] {
        styledReport(update: update, tape: tape, wallTime: wallTime).map(\.text)
    }

    /// ``report(update:tape:wallTime:)``'s lines, each with what it is, as
    /// the code that made it knows (issue 30): where it diverged is a
    /// failure, the diff's lines recorded and replayed, for a terminal's
    /// colours.
    package func styledReport(update: Bool, tape: Bool, wallTime: Bool = true) -> [(text: String, style: OutputStyle?)] {
        let label = "session \(session.label)"
        let timing =
            "\(Format.duration(milliseconds: virtualMilliseconds)) of virtual time"
            + (wallTime ? " in \(Format.wall(seconds: seconds))" : "")
        if update {
            return [
                (
                    changedSteps == 0
                        ? "\(label): \(Format.count(stepsRun, "step")) replayed, nothing changed (\(timing))"
                        : "\(label): re-recorded, \(changedSteps) of \(Format.count(stepsRun, "step")) changed (\(timing))", nil
                )
            ]
        }
        var lines: [(text: String, style: OutputStyle?)] = []
        if !tapeDivergences.isEmpty {
            lines.append(("\(label): the SDK's requests diverge from the tape:", .failure))
            lines += tapeDivergences.map { ("  \($0)", nil) }
        }
        if !unusedTape.isEmpty {
            lines.append(
                (
                    "\(label): \(unusedTape.count) request\(unusedTape.count == 1 ? "" : "s") on the tape never made: \(unusedTape.prefix(3).joined(separator: "; "))\(unusedTape.count > 3 ? "; …" : "")",
                    .failure
                ))
        }
        guard let divergence else {
            if identical {
                lines.append(
                    (
                        "\(label): \(Format.count(stepsRun, "step")) replayed\(tape || session.isFieldRecording ? " from the tape" : ""), identical (\(timing))",
                        .success
                    ))
            }
            return lines
        }
        lines.append(("\(label) diverged at step \(divergence.step): > \(divergence.input)", .failure))
        lines += (session.isFieldRecording ? ["--- on the device", "+++ replayed"] : ["--- recorded", "+++ replayed"]).map { ($0, nil) }
        lines += divergence.diffLines.map { ($0.text, $0.style) }
        if let hint = divergence.hint { lines.append(("hint: \(hint)", nil)) }
        return lines
    }
}
