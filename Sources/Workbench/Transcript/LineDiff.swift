/// A line diff of expected and actual text, printed with `-` for expected
/// lines that are missing and `+` for actual lines that were not expected.
public enum LineDiff {
    /// Diff lines (`  same`, `- expected`, `+ actual`); `same` decides which
    /// lines correspond (a transcript's patterns, or equality).
    public static func lines(
        expected: [String], actual: [String], same: (String, String) -> Bool = { $0 == $1 }
    ) -> [String] {
        let n = expected.count, m = actual.count
        // Longest common subsequence table, from the ends.
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        if n > 0, m > 0 {
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    table[i][j] = same(expected[i], actual[j]) ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
        }
        var out: [String] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, same(expected[i], actual[j]) {
                out.append("  " + actual[j])
                i += 1
                j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                out.append("- " + expected[i])
                i += 1
            } else {
                out.append("+ " + actual[j])
                j += 1
            }
        }
        return out
    }
}
