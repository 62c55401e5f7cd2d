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
            out += session.mode == .server ? expectedLinesAgainstAServer(step) : TranscriptRunner.lines(of: step.output).map(expectedLine)
        }
        return out.map { $0 + "\n" }.joined()
    }

    /// A server session's step as expected lines: each part that varies
    /// from run to run against a server (a history's stamp, a measured
    /// duration, a value minted in the session), as its recorded styles
    /// say, written `[..]`; event lines as recorded (they are not
    /// compared). A line that must be written as a pattern is written
    /// whole; a step recorded without styles (LEGACY), as it was.
    static func expectedLinesAgainstAServer(_ step: RecordedStep) -> [String] {
        let printed = TranscriptRunner.lines(of: step.output)
        guard step.outputStyles != nil else { return printed.map(expectedLine) }
        let styled = step.styledOutput
        var varying = styled.spans.filter { $0.style.variesAgainstAServer && $0.style != .eventTime }.map(\.range) + step.mintedParts
        varying.sort { $0.lowerBound < $1.lowerBound }
        var merged: [StyledText.Span] = []
        for range in varying {
            if let last = merged.last, range.lowerBound <= last.range.upperBound {
                merged[merged.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, range.upperBound)
            } else {
                merged.append(StyledText.Span(range, .minted))
            }
        }
        let marked = StyledText(text: step.output, spans: merged).lines
        return zip(printed, zip(styled.lines, marked)).map { text, lines in
            let (line, varies) = lines
            let written = expectedLine(for: text)
            guard written == text, !line.spans.contains(where: { $0.style == .eventTime }) else { return written }
            return varies.parts.map { $0.style == nil ? $0.text : TranscriptMatcher.anyText }.joined()
        }
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
