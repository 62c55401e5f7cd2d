/// Durations as people type them: `500ms`, `30s`, `10m`, `2h`, `1d`, and
/// sums such as `1m30s`.
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
            let unit = rest.prefix(while: \.isLetter)
            guard let (_, factor) = units.first(where: { $0.0 == unit }) else { throw invalid(text) }
            rest = rest.dropFirst(unit.count)
            total += value * factor
        }
        return .milliseconds(total)
    }

    private static func invalid(_ text: String) -> ScriptError {
        ScriptError(.badValue, "invalid duration \"\(text)\": write a number and a unit, e.g. 500ms, 30s, 10m, 2h")
    }
}
