import Foundation

/// How a transcript is checked against a running server (`chatbench test
/// --server`, issue 6's conformance), and a server session's replay from
/// its tape.
///
/// Against a server, time is real: event lines (`  [00:00:00.044] w1 emits
/// …`) carry wall-clock offsets and interleave as the network delivers,
/// the durations of `wait` and `settle` are real, and the values the client
/// and the server mint carry their own random parts. Everything a command
/// prints itself, and every `expect`, must hold as in the embedded world.
/// A file that moves virtual time declares `# embedded-only: REASON` and
/// is skipped.
///
/// Each side is compared by what its producers marked and what its session
/// knows (issue 30), never by what its text looks like:
/// - an event's line (its time marked ``OutputStyle/eventTime``) is left
///   out; a history's stamp and a measured duration (``OutputStyle/time``,
///   ``OutputStyle/duration``) are written `[..]`;
/// - a transcript that runs in both worlds is compared with a run of the
///   same file in the embedded world, step by step, each side's minted
///   values written as their names (``MintedValues``: `c1.id`, not
///   `c-4e9f44e489025cc1` here and `c-89025cc1` there);
/// - a `# server-only` file has no embedded run to compare with: its
///   lines are compared as written, with `[..]` where a value varies (as
///   `export` writes a server session), and without its event lines;
/// - a replay from the tape mints the recorded ids again: its ids are
///   compared as they are, against the recorded step's styled output.
package enum ServerConformance {
    /// What a transcript's run against a server is compared with.
    package enum Expected {
        /// The file's lines as written: a `# server-only` file's.
        case asWritten
        /// A run of the same file in the embedded world, step by step.
        case embeddedRun(WorkbenchSession)

        /// For `transcript`, run against a server with `options`: a run in
        /// the embedded world with the same seed and settings, unless the
        /// file holds only against a server.
        package static func of(_ transcript: Transcript, options: WorkbenchOptions) throws -> Expected {
            guard transcript.serverOnly == nil, transcript.kind == .transcript else { return .asWritten }
            var embedded = options
            embedded.serverURL = nil
            embedded.app = nil
            embedded.tape = nil
            let session = try WorkbenchSession(options: embedded)
            session.keepsMintedValues = true
            session.capturesTraffic = false
            return .embeddedRun(session)
        }
    }

    /// A run's output as it is compared: without its event lines, each part
    /// that varies against a server as `[..]`, and, when `minted` is given,
    /// each value minted in the run as `<name>`.
    static func comparable(_ output: StyledText, naming minted: MintedValues? = nil) -> [String] {
        var lines = output.lines
        while let last = lines.last, last.text.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.compactMap { line in
            if line.spans.contains(where: { $0.style == .eventTime }) { return nil }
            var text = ""
            var varied = false
            for part in line.parts {
                let varies = part.style?.variesAgainstAServer == true
                // Parts that vary side by side (a settle's duration and
                // what it moved through) vary as one.
                if varies, !varied { text += TranscriptMatcher.anyText }
                if !varies { text += minted?.naming(in: part.text) ?? part.text }
                varied = varies
            }
            return text == TranscriptMatcher.anyLines ? nil : text
        }
    }

    /// A `# server-only` file's expected lines as they are compared: as
    /// written, without its event lines. An event line is the transcript
    /// format's own (how `chatbench` writes one, and `export` too): two
    /// spaces, then a stamp in brackets or `[..]`.
    static func comparable(expected lines: [String]) -> [String] {
        lines.filter { !isEventLine($0) && $0 != TranscriptMatcher.anyLines }
    }

    static func isEventLine(_ line: String) -> Bool {
        line.hasPrefix("  [")
            && (line.hasPrefix("  [..]") || line.range(of: #"^  \[\d\d:\d\d:\d\d\.\d\d\d\]"#, options: .regularExpression) != nil)
    }
}
