extension Transcript {
    /// A recorded session as a transcript (`export SESSION FILE`): a header
    /// naming it, its seed, then every step's input and output. Steps whose
    /// output depends on the machine (`sessions`, `record stop`, `history`)
    /// are left out: the transcript's run would print something else.
    package static func export(_ session: RecordedSession, steps: [RecordedStep]) -> String {
        var out = [
            "# chatbench transcript of session \(session.label), recorded \(SessionListing.date(session.created)) with chatbench \(session.toolVersion)",
            "# Run it with: chatbench test FILE",
            "# seed: \(session.seed)",
        ]
        let probe = MachineDependenceProbe()
        for step in steps where !probe.dependsOnTheMachine(step.input) {
            out.append("> \(step.input)")
            out += TranscriptRunner.lines(of: step.output).map(expectedLine)
        }
        return out.map { $0 + "\n" }.joined()
    }
}

/// Tells verbs whose output depends on the machine apart without a world.
struct MachineDependenceProbe {
    let table = CommandTable.standard

    func dependsOnTheMachine(_ line: String) -> Bool {
        guard let tokens = try? Tokenizer.tokenize(line), let (spec, _) = table.match(tokens) else { return false }
        return spec.dependsOnTheMachine
    }
}
