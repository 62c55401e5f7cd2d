/// "Did you mean …?" for mistyped verbs, fields and options.
enum Suggestion {
    /// The candidate closest to `word` by edit distance, if close enough.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let word = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate.lowercased())
            if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let limit = max(2, word.count / 3)
        if best.1 <= limit { return best.0 }
        if let prefixed = candidates.first(where: { $0.lowercased().hasPrefix(word) && !word.isEmpty }) { return prefixed }
        return nil
    }

    /// ` (did you mean X?)` or nothing.
    static func hint(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Edit distance where swapping two neighbours counts as one edit
    /// (optimal string alignment), so `sned` is one edit from `send`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
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
