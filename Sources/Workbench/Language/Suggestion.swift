/// "Did you mean …?" for mistyped verbs, fields and options.
package enum Suggestion {
    /// The candidate closest to `word`, if close enough: one edit away (or
    /// a few for longer words), ties going to the one that keeps more of
    /// the typed prefix (`ofline` → `offline`, not `online`); failing
    /// that, one that starts with the word; failing that, one the word
    /// abbreviates (its letters in order, the first one first: `clr` →
    /// `clear`). A word of one to three letters is never matched to
    /// something two edits away (`q` is not `c1`). A candidate written with
    /// its argument (`messages(C)`) is compared by its name (`messages`).
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let word = word.lowercased()
        guard !word.isEmpty else { return nil }
        let names = candidates.map { name(of: $0) }
        var best: (index: Int, distance: Int, prefix: Int)?
        for (index, lowered) in names.enumerated() {
            let distance = editDistance(word, lowered)
            let prefix = zip(word, lowered).prefix { $0 == $1 }.count
            if let current = best, distance > current.distance || (distance == current.distance && prefix <= current.prefix) { continue }
            best = (index, distance, prefix)
        }
        guard let best else { return nil }
        let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
        if best.distance <= limit { return candidates[best.index] }
        if let index = names.firstIndex(where: { $0.hasPrefix(word) }) { return candidates[index] }
        guard word.count >= 3 else { return nil }
        let abbreviated = names.indices.filter { names[$0].first == word.first && abbreviates(word, names[$0]) }
        return abbreviated.min { names[$0].count < names[$1].count }.map { candidates[$0] }
    }

    /// A candidate's name, lowercased, without its `(ARGUMENT)`.
    private static func name(of candidate: String) -> String {
        String(candidate.lowercased().prefix { $0 != "(" })
    }

    /// Whether `word`'s letters all occur in `name`, in order.
    static func abbreviates(_ word: String, _ name: String) -> Bool {
        var rest = Substring(name)
        for character in word {
            guard let found = rest.firstIndex(of: character) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }

    /// ` (did you mean X?)` or nothing.
    package static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Edit distance where swapping two neighbours counts as one edit
    /// (optimal string alignment), so `sned` is one edit from `send`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
