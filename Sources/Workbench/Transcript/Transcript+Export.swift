import Foundation

extension Transcript {
    /// A recorded session as a transcript (`export SESSION FILE`): a header
    /// naming it, its seed, then every step's input and output. Steps whose
    /// output depends on the machine (`sessions`, `record stop`, `history`)
    /// are left out: the transcript's run would print something else. A
    /// server session's transcript is marked `server-only`: what it printed
    /// (real times, ids with the session's random part) holds only against
    /// a server, where `chatbench test --server` compares it with those
    /// values declared as varying (``ServerConformance``); the embedded
    /// world skips it, saying why, rather than failing on every time.
    package static func export(_ session: RecordedSession, steps: [RecordedStep]) -> String {
        var out = [
            "# chatbench transcript of session \(session.label), recorded \(SessionListing.date(session.created)) with chatbench \(session.toolVersion)"
        ]
        if session.mode == .server {
            out += [
                "# server-only: recorded against a server (\(session.serverURL ?? "a server")): its times and ids are real ones",
                "# Run it with: \(runLine(for: session, file: "FILE"))",
            ]
        } else {
            out.append("# Run it with: \(runLine(for: session, file: "FILE"))")
        }
        out.append("# seed: \(session.seed)")
        let probe = MachineDependenceProbe()
        for step in steps where !probe.dependsOnTheMachine(step.input) {
            out.append("> \(step.input)")
            out += TranscriptRunner.lines(of: step.output).map(expectedLine)
        }
        return out.map { $0 + "\n" }.joined()
    }
}

extension Transcript {
    /// `export SESSION FILE`, on the command line and at the prompt alike:
    /// session `recorded` of `store` written to `file` as a transcript. An
    /// app's field recording becomes commands (``FieldExport``; `source` is
    /// the file as the user named it, for the header), any other session
    /// its steps (``export(_:steps:)``). A file that exists is kept unless
    /// `force`. Returns what could not be inferred (notes) and the line
    /// saying where the transcript went.
    package static func write(
        _ recorded: RecordedSession, of store: RecordingStore, source: String, to file: String, force: Bool
    ) throws(RecordingError) -> (notes: [String], done: String) {
        if !force, FileManager.default.fileExists(atPath: file) {
            throw RecordingError(.unwritable, "\(file) already exists: choose another name, or pass --force")
        }
        let steps = try store.steps(of: recorded.id)
        var text = ""
        var notes: [String] = []
        if recorded.isFieldRecording {
            let field = try FieldExport.export(recorded, steps: steps, traffic: try store.traffic(of: recorded.id), source: source)
            (text, notes) = (field.text, field.notes)
        } else {
            text = export(recorded, steps: steps)
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            throw RecordingError(.unwritable, "cannot write \(file): \((error as NSError).localizedDescription)")
        }
        return (notes, "wrote session \(recorded.label) to \(file) (run it with: \(runLine(for: recorded, file: file)))")
    }
}

extension Transcript {
    /// The command that runs session `session`'s transcript `file`: against
    /// a fresh server for a server session's.
    static func runLine(for session: RecordedSession, file: String) -> String {
        session.mode == .server ? "chatbench test --server fresh \(file)" : "chatbench test \(file)"
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
