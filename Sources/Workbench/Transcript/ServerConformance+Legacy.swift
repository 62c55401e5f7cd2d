// LEGACY: a step recorded before its styles were (step.styles, v11; and
// before this build, a step that printed no styled part) says neither
// which of its parts vary nor where its minted values are. A replay from
// the tape compares such a step, on both sides, by the shapes those values
// were printed in: the one place that reads them from text. Nothing
// recorded by this build is read here.

import Foundation

extension ServerConformance {
    /// LEGACY: lines of a step recorded without styles, and the replay's
    /// lines for it, as they are compared: event lines out, times,
    /// durations and minted ids written as `[..]` and `<id>`.
    static func comparable(legacyRecorded lines: [String]) -> [String] {
        comparable(expected: lines).map { normalizingWaits(normalizingTimes(normalizingIdentifiers($0))) }
    }

    /// `waited 50ms for …` and `settled after 2.118s` compare as `waited
    /// [..] for …`. A duration is written as `Format.duration` writes it.
    private static func normalizingWaits(_ line: String) -> String {
        line.replacingOccurrences(
            of: #"^(waited|settled after) [0-9][0-9a-z.]*( [0-9][0-9a-z.]*)?"#, with: "$1 " + TranscriptMatcher.anyText,
            options: .regularExpression)
    }

    /// `[00:00:00.049]` anywhere (histories in `inspect`) becomes `[..]`.
    private static func normalizingTimes(_ line: String) -> String {
        line.replacingOccurrences(of: #"\[\d\d:\d\d:\d\d\.\d\d\d\]"#, with: TranscriptMatcher.anyText, options: .regularExpression)
    }

    /// The shape of the ids the client and the server mint: a short
    /// prefix, a dash, 8 to 16 hex digits.
    private static func normalizingIdentifiers(_ line: String) -> String {
        line.replacingOccurrences(of: #"\b[a-z]{1,5}-[0-9a-f]{8,16}\b"#, with: "<id>", options: .regularExpression)
    }
}
