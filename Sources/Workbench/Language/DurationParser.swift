/// Durations as people type them: `500ms`, `30s`, `10m`, `2h`, `1d`, and
/// sums such as `1m30s`; and as the workbench prints them (`Format.duration`),
/// with fractions: `1.5s`, `59m29.5s`, `2h34m0.947s`. A duration is a whole
/// number of milliseconds: `1.5ms` is refused.
enum DurationParser {
    private static let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]

    static func parse(_ text: String) throws(ScriptError) -> Duration {
        var rest = Substring(text)
        var total: Int64 = 0
        guard !rest.isEmpty else { throw invalid(text) }
        while !rest.isEmpty {
            let digits = rest.prefix(while: \.isNumber)
            guard !digits.isEmpty, let value = Int64(digits), value < 1_000_000_000 else { throw invalid(text) }
            rest = rest.dropFirst(digits.count)
            var fraction: Substring = ""
            if rest.first == "." {
                fraction = rest.dropFirst().prefix(while: \.isNumber)
                guard !fraction.isEmpty, fraction.count <= 9 else { throw invalid(text) }
                rest = rest.dropFirst(1 + fraction.count)
            }
            let unit = rest.prefix(while: \.isLetter)
            guard let (_, factor) = units.first(where: { $0.0 == unit }) else { throw invalid(text) }
            rest = rest.dropFirst(unit.count)
            total += value * factor
            if !fraction.isEmpty {
                // fraction × factor, in whole milliseconds only.
                var scale: Int64 = 1
                for _ in fraction { scale *= 10 }
                let (product, overflow) = (Int64(fraction) ?? 0).multipliedReportingOverflow(by: factor)
                guard !overflow, product % scale == 0 else {
                    throw ScriptError(
                        .badValue,
                        "invalid duration \"\(text)\": durations are whole milliseconds; write e.g. 1.5s, 0.25s, 59m29.5s")
                }
                total += product / scale
            }
        }
        return .milliseconds(total)
    }

    private static func invalid(_ text: String) -> ScriptError {
        ScriptError(.badValue, "invalid duration \"\(text)\": write a number and a unit, e.g. 500ms, 30s, 10m, 2h")
    }
}
