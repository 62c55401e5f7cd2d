import Foundation

/// How a transcript written for the embedded world is checked against a
/// running server (`chatbench test --server`, issue 6's conformance), and
/// a server session's replay from its tape.
///
/// Against a server, time is real: event lines (`  [00:00:00.044] w1 emits
/// …`) carry wall-clock offsets and interleave as the network delivers,
/// the durations of `wait` and `settle` are real, and identifiers the
/// client and the server mint carry their own random parts. So both sides
/// are compared without event lines and with those values written as
/// `[..]` and `<id>`; everything a command prints itself, and every
/// `expect`, must hold as in the embedded world. A file that moves virtual
/// time declares `# embedded-only: REASON` and is skipped.
///
/// The run's own output says which of its parts vary, as its producers
/// marked them (``OutputStyle/variesAgainstAServer``: an event's time, a
/// history's stamp, a measured duration): it is never read back for them
/// (issue 30). The expected side is text, a transcript file or a recorded
/// step, and is read by the same rules written as patterns. Identifiers
/// are recognised on both sides by the shape minted ids have
/// (``mintedIDShape``), since those the server mints reach the output
/// through the SDK as plain strings.
package enum ServerConformance {
    /// The run's output as it is compared: by what its parts are.
    package static func comparable(_ output: StyledText) -> [String] {
        var lines = output.lines
        while let last = lines.last, last.text.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.compactMap { line in
            if line.spans.contains(where: { $0.style == .eventTime }) { return nil }
            var text = ""
            for part in line.parts { text += part.style?.variesAgainstAServer == true ? TranscriptMatcher.anyText : part.text }
            return text == TranscriptMatcher.anyLines ? nil : normalizingIdentifiers(text)
        }
    }

    /// The expected lines (a transcript file's, a recorded step's) as they
    /// are compared: the same rules, read from their text.
    package static func comparable(_ lines: [String]) -> [String] {
        lines.filter { !isEventLine($0) && $0 != TranscriptMatcher.anyLines }.map {
            normalizingWaits(normalizingTimes(normalizingIdentifiers($0)))
        }
    }

    /// How long `wait` and `settle` took is real time: `waited 50ms for …`
    /// and `settled after 2.118s` compare as `waited [..] for …`. A duration
    /// is written as `Format.duration` writes it: with fractions of a second
    /// (`2.118s`) and, past a day, in two words (`1d 1h30m`).
    static func normalizingWaits(_ line: String) -> String {
        line.replacingOccurrences(
            of: #"^(waited|settled after) [0-9][0-9a-z.]*( [0-9][0-9a-z.]*)?"#, with: "$1 " + TranscriptMatcher.anyText,
            options: .regularExpression)
    }

    /// `[00:00:00.049]` anywhere (histories in `inspect`) becomes `[..]`.
    static func normalizingTimes(_ line: String) -> String {
        line.replacingOccurrences(of: #"\[\d\d:\d\d:\d\d\.\d\d\d\]"#, with: TranscriptMatcher.anyText, options: .regularExpression)
    }

    static func isEventLine(_ line: String) -> Bool {
        line.hasPrefix("  [")
            && (line.hasPrefix("  [..]") || line.range(of: #"^  \[\d\d:\d\d:\d\d\.\d\d\d\]"#, options: .regularExpression) != nil)
    }

    /// The shape of the ids the client and the server mint: a short
    /// prefix, a dash, 8 to 16 hex digits (``RandomSource``'s ids, the
    /// seeded part after the session's random one).
    static let mintedIDShape = #"\b[a-z]{1,5}-[0-9a-f]{8,16}\b"#

    static func normalizingIdentifiers(_ line: String) -> String {
        line.replacingOccurrences(of: mintedIDShape, with: "<id>", options: .regularExpression)
    }
}
