import Foundation

/// Matches actual output against a transcript's expected lines (SPEC W8):
/// `[..]` stands for any text within a line, a line `...` for any lines
/// (none included), and a line ending in ` (re)` is a regular expression
/// the whole line must match. Anything else must be equal.
package final class TranscriptMatcher {
    package static let anyText = "[..]"
    package static let anyLines = "..."
    package static let regexSuffix = " (re)"

    private var regexes: [String: NSRegularExpression] = [:]

    package init() {}

    /// Whether `actual` matches `expected` as a whole.
    package func matches(expected: [String], actual: [String]) -> Bool {
        // Dynamic programming over (expected index, actual index).
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (actual.count + 1) + j
            if let known = memo[key] { return known }
            let result: Bool
            if i == expected.count {
                result = j == actual.count
            } else if expected[i] == Self.anyLines {
                result = match(i + 1, j) || (j < actual.count && match(i, j + 1))
            } else {
                result = j < actual.count && lineMatches(expected[i], actual[j]) && match(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    /// Whether one actual line matches one expected line.
    package func lineMatches(_ pattern: String, _ line: String) -> Bool {
        if pattern == line { return true }
        if pattern.hasSuffix(Self.regexSuffix) {
            let body = String(pattern.dropLast(Self.regexSuffix.count))
            guard let regex = regex(body) else { return false }
            return regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        if pattern.contains(Self.anyText) {
            return Self.globMatches(pattern.components(separatedBy: Self.anyText), line)
        }
        return false
    }

    /// `[..]` pieces: the first must start the line, the last end it, the
    /// others follow in order in between.
    static func globMatches(_ pieces: [String], _ line: String) -> Bool {
        guard let first = pieces.first, let last = pieces.last, line.hasPrefix(first) else { return false }
        var rest = Substring(line.dropFirst(first.count))
        guard rest.count >= last.count, rest.hasSuffix(last) else { return false }
        rest = rest.dropLast(last.count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    private func regex(_ body: String) -> NSRegularExpression? {
        if let cached = regexes[body] { return cached }
        guard let regex = try? NSRegularExpression(pattern: "^(?:\(body))$") else { return nil }
        regexes[body] = regex
        return regex
    }

    /// Why a pattern is not a valid regular expression; nil when it is.
    static func regexProblem(_ body: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: "^(?:\(body))$")
            return nil
        } catch {
            return "\"\(body)\" does not compile"
        }
    }
}
