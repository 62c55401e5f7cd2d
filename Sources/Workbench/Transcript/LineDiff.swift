/// A line diff of expected and actual text, printed with `-` for expected
/// lines that are missing and `+` for actual lines that were not expected.
package enum LineDiff {
    /// One line of a diff: what it is, and its text.
    package enum Line: Sendable, Hashable {
        /// A line both have (or an actual line a `[...]` line stands for).
        case same(String)
        /// An expected line that is missing.
        case removed(String)
        /// An actual line that was not expected.
        case added(String)

        /// `  same`, `- expected`, `+ actual`.
        package var text: String {
            switch self {
            case .same(let line): "  " + line
            case .removed(let line): "- " + line
            case .added(let line): "+ " + line
            }
        }

        /// How a terminal shows it: nil for context.
        package var style: OutputStyle? {
            switch self {
            case .same: nil
            case .removed: .removed
            case .added: .added
            }
        }
    }

    /// Diff lines (`  same`, `- expected`, `+ actual`): a smallest edit.
    /// `same` decides which lines correspond (a transcript's patterns, or
    /// equality); an expected line equal to `anyLines` stands for any number
    /// of actual lines, which are shown as context.
    package static func lines(
        expected: [String], actual: [String], anyLines: String? = nil, same: (String, String) -> Bool = { $0 == $1 }
    ) -> [String] {
        diff(expected: expected, actual: actual, anyLines: anyLines, same: same).map(\.text)
    }

    /// The diff of ``lines(expected:actual:anyLines:same:)``, each line typed.
    package static func diff(
        expected: [String], actual: [String], anyLines: String? = nil, same: (String, String) -> Bool = { $0 == $1 }
    ) -> [Line] {
        let n = expected.count
        let m = actual.count
        // cost[i][j]: fewest edits turning actual[j...] into a match of expected[i...].
        var cost = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n, through: 0, by: -1) {
            for j in stride(from: m, through: 0, by: -1) {
                if i == n {
                    cost[i][j] = m - j
                } else if expected[i] == anyLines {
                    cost[i][j] = j == m ? cost[i + 1][j] : min(cost[i + 1][j], cost[i][j + 1])
                } else if j == m {
                    cost[i][j] = 1 + cost[i + 1][j]
                } else {
                    var best = 1 + min(cost[i + 1][j], cost[i][j + 1])
                    if same(expected[i], actual[j]) { best = min(best, cost[i + 1][j + 1]) }
                    cost[i][j] = best
                }
            }
        }
        var out: [Line] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, expected[i] == anyLines {
                if j < m, cost[i][j + 1] <= cost[i + 1][j] {
                    out.append(.same(actual[j]))
                    j += 1
                } else {
                    i += 1
                }
            } else if i < n, j < m, same(expected[i], actual[j]), cost[i][j] == cost[i + 1][j + 1] {
                out.append(.same(actual[j]))
                i += 1
                j += 1
            } else if i < n, j == m || cost[i][j] == 1 + cost[i + 1][j] {
                out.append(.removed(expected[i]))
                i += 1
            } else {
                out.append(.added(actual[j]))
                j += 1
            }
        }
        return out
    }
}
