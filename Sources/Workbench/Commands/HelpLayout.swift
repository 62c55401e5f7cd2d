/// How `help` lays out its lists of verbs: usage on the left, what it does
/// on the right, in one column.
///
/// Without a width (scripts, transcripts) each entry is one line, the
/// descriptions aligned to the longest usage of the list, as they have
/// always been printed. At a terminal's width, descriptions start at one
/// column for the whole list, no further than two fifths of the width, and
/// their wrapped lines start there too; a usage too long for that column
/// takes lines of its own (its options wrapped under it), and its
/// description starts on the next line, at the same column.
enum HelpLayout {
    /// The lines of `rows` (usage, description), laid out for `width`; at a
    /// width, descriptions start where they do for `aligned` (all the rows
    /// of a longer list this one is part of), or for `rows`.
    static func lines(
        _ rows: [(usage: String, summary: String)], width: Int?, aligned: [String]? = nil
    ) -> [String] {
        guard let width else {
            let column = rows.map(\.usage.count).max() ?? 0
            return rows.map { "  \($0.usage)\(String(repeating: " ", count: max(2, column - $0.usage.count + 2)))\($0.summary)" }
        }
        let cap = max(16, width * 2 / 5 - 4)
        let column = (aligned ?? rows.map(\.usage)).map(\.count).filter { $0 <= cap }.max() ?? cap
        let start = 2 + column + 2
        var lines: [String] = []
        for row in rows {
            if row.usage.count <= column {
                let pad = String(repeating: " ", count: column - row.usage.count + 2)
                lines += HelpTopics.wrap("  \(row.usage)\(pad)\(row.summary)", width: width, indent: start)
            } else {
                lines += HelpTopics.wrap("  \(row.usage)", width: width, indent: 6)
                lines += HelpTopics.wrap(String(repeating: " ", count: start) + row.summary, width: width, indent: start)
            }
        }
        return lines
    }
}
