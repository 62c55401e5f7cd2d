import Foundation

/// How a transcript written for the embedded world is checked against a
/// running server (`chatbench test --server`, issue 6's conformance).
///
/// Against a server, time is real: event lines (`  [00:00:00.044] w1 emits
/// …`) carry wall-clock offsets and interleave as the network delivers,
/// and identifiers the server makes come from its own generator. So both
/// sides are compared without event lines and with identifiers
/// (`c-1a2b3c4d`, `m-…`) written as `<id>`, times and the durations of
/// `wait` and `settle` as `[..]`; everything a command prints
/// itself, and every `expect`, must hold as in the embedded world. A file
/// that moves virtual time declares `# embedded-only: REASON` and is
/// skipped.
package enum ServerConformance {
    /// The lines that must agree.
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

    static func normalizingIdentifiers(_ line: String) -> String {
        line.replacingOccurrences(of: #"\b[a-z]{1,5}-[0-9a-f]{8,16}\b"#, with: "<id>", options: .regularExpression)
    }
}
