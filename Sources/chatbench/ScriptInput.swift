import Workbench

/// What `run FILE`, `run -` and the REPL with piped input are given: a
/// transcript (its first line after the comments is an input, `> …`), whose
/// output is then checked, or a script, whose lines run as they come.
enum ScriptInput {
    case transcript(Transcript)
    /// The comments and blank lines read so far, and the lines still to read.
    case script(header: [String], seed: UInt64?, next: () -> String?)

    /// A whole file's text.
    static func text(_ text: String, path: String) throws(TranscriptError) -> ScriptInput {
        let transcript = try Transcript.parse(text, path: path)
        guard transcript.kind == .script else { return .transcript(transcript) }
        var iterator = transcript.blocks.map(\.input).makeIterator()
        return .script(header: [], seed: transcript.seed, next: { iterator.next() })
    }

    /// Lines read one at a time (standard input): the comments and blank
    /// lines at the top are read first; if the next line is an input (`> `),
    /// the rest is read whole and checked as a transcript, as `run FILE` does;
    /// otherwise the lines run as they arrive.
    static func lines(path: String, readLine: @escaping () -> String?) throws(TranscriptError) -> ScriptInput {
        var header: [String] = []
        var first: String?
        while let line = readLine() {
            if Transcript.isHeader(line) {
                header.append(line)
                continue
            }
            first = line
            break
        }
        guard let first, first.hasPrefix("> ") || first == ">" else {
            let seed = try Transcript.parse(header.map { $0 + "\n" }.joined(), path: path).seed
            var pending = header + (first.map { [$0] } ?? [])
            return .script(
                header: header, seed: seed,
                next: {
                    if !pending.isEmpty { return pending.removeFirst() }
                    return readLine()
                })
        }
        var all = header + [first]
        while let line = readLine() { all.append(line) }
        return .transcript(try Transcript.parse(all.map { $0 + "\n" }.joined(), path: path))
    }
}

/// Runs a script input in a session made from `world`: the one way `run`
/// and the piped REPL run scripts and transcripts.
enum ScriptInputRunner {
    /// Runs it and returns the exit status.
    static func run(_ input: ScriptInput, path: String, world: WorldOptions, kind: SessionKind) throws -> Int32 {
        var options = world.workbenchOptions(interactive: false)
        switch input {
        case .transcript(let transcript): if let seed = transcript.seed { options.seed = seed }
        case .script(_, let seed, _): if let seed { options.seed = seed }
        }
        let session = try world.makeSession(options)
        let engine = try world.engine(for: session, kind: kind)
        defer { (engine as? RecordedEngine)?.finish() }
        switch input {
        case .script(_, _, let next):
            return ScriptLoop(engine: engine, bail: world.bail).run(lines: next)
        case .transcript(let transcript):
            let conformance = options.serverURL == nil ? nil : try ServerConformance.Expected.of(transcript, options: options)
            let result = TranscriptRunner.check(
                transcript, path: path, session: session, execute: engine.execute,
                onStep: { _, step in
                    Terminal.writeStep(step.styledOutput)
                }, conformance: conformance)
            Terminal.flush()
            Terminal.writeError(TranscriptRunner.report(result).text)
            return result.passed ? 0 : 1
        }
    }
}
