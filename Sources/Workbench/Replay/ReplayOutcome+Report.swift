extension ReplayOutcome {
    /// What `replay` prints about this outcome, line by line, on the
    /// command line and at the prompt alike: replayed and identical, or
    /// re-recorded, or where it diverged, as a diff. `wallTime`: say how
    /// long it took (the REPL says so only with `timing on`, so that its
    /// output stays the same from run to run).
    package func report(update: Bool, tape: Bool, wallTime: Bool = true) -> [String] {
        let label = "session \(session.label)"
        let timing =
            "\(Format.duration(milliseconds: virtualMilliseconds)) of virtual time"
            + (wallTime ? " in \(Format.wall(seconds: seconds))" : "")
        if update {
            return [
                changedSteps == 0
                    ? "\(label): \(Format.count(stepsRun, "step")) replayed, nothing changed (\(timing))"
                    : "\(label): re-recorded, \(changedSteps) of \(Format.count(stepsRun, "step")) changed (\(timing))"
            ]
        }
        var lines: [String] = []
        if !tapeDivergences.isEmpty {
            lines.append("\(label): the SDK's requests diverge from the tape:")
            lines += tapeDivergences.map { "  \($0)" }
        }
        if !unusedTape.isEmpty {
            lines.append(
                "\(label): \(unusedTape.count) request\(unusedTape.count == 1 ? "" : "s") on the tape never made: \(unusedTape.prefix(3).joined(separator: "; "))\(unusedTape.count > 3 ? "; …" : "")"
            )
        }
        guard let divergence else {
            if identical {
                lines.append(
                    "\(label): \(Format.count(stepsRun, "step")) replayed\(tape || session.isFieldRecording ? " from the tape" : ""), identical (\(timing))"
                )
            }
            return lines
        }
        lines.append("\(label) diverged at step \(divergence.step): > \(divergence.input)")
        lines += session.isFieldRecording ? ["--- on the device", "+++ replayed"] : ["--- recorded", "+++ replayed"]
        lines += divergence.diff
        if let hint = divergence.hint { lines.append("hint: \(hint)") }
        return lines
    }
}
