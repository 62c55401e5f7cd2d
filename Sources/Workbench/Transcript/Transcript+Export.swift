extension Transcript {
    /// A recorded session as a transcript (`export SESSION FILE`): a header
    /// naming it, its seed, then every step's input and output. Steps that
    /// drive the recording itself (`sessions`, `record stop`) are left out:
    /// what they print depends on the database.
    package static func export(_ session: RecordedSession, steps: [RecordedStep]) -> String {
        var out = [
            "# chatbench transcript of session \(session.label), recorded \(SessionListing.date(session.created)) with chatbench \(session.toolVersion)",
            "# Run it with: chatbench test FILE",
            "# seed: \(session.seed)",
        ]
        let probe = RecordingCommandProbe()
        for step in steps where !probe.isRecordingCommand(step.input) {
            out.append("> \(step.input)")
            out += TranscriptRunner.lines(of: step.output).map(expectedLine)
        }
        return out.map { $0 + "\n" }.joined()
    }
}

/// Tells recording verbs apart without a world.
struct RecordingCommandProbe {
    let table = CommandTable.standard

    func isRecordingCommand(_ line: String) -> Bool {
        guard let tokens = try? Tokenizer.tokenize(line), let (spec, _) = table.match(tokens) else { return false }
        return spec.readsThisSessionsDatabase
    }
}
