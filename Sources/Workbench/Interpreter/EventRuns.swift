/// Folds runs of repeated events, so that `clock advance 365d` prints a
/// few lines instead of seventeen thousand token refreshes.
///
/// A run is a block of one to `maxBlock` events repeated back to back with
/// the same texts (times differ). The first block is shown in full; the
/// repeats become one line with their count and the time of the last.
enum EventRuns {
    static let maxBlock = 4
    /// Runs shorter than this many blocks are shown in full.
    static let minimumRepeats = 3

    enum Line: Equatable {
        case event(index: Int)
        /// `count` more repetitions of `block` (indices of the first
        /// occurrence), the last ending at event `lastIndex`.
        case repeated(count: Int, block: Range<Int>, lastIndex: Int)
    }

    static func fold(_ texts: [String]) -> [Line] {
        var lines: [Line] = []
        var i = 0
        while i < texts.count {
            var best: (size: Int, repeats: Int)?
            for size in 1...maxBlock where i + 2 * size <= texts.count {
                var repeats = 1
                while i + (repeats + 1) * size <= texts.count,
                    texts[(i + repeats * size)..<(i + (repeats + 1) * size)].elementsEqual(texts[i..<(i + size)])
                {
                    repeats += 1
                }
                if repeats >= minimumRepeats, repeats * size > (best.map { $0.repeats * $0.size } ?? 0) {
                    best = (size, repeats)
                }
            }
            guard let best else {
                lines.append(.event(index: i))
                i += 1
                continue
            }
            for j in i..<(i + best.size) { lines.append(.event(index: j)) }
            let end = i + best.repeats * best.size
            lines.append(.repeated(count: best.repeats - 1, block: i..<(i + best.size), lastIndex: end - 1))
            i = end
        }
        return lines
    }

    /// `8831` → `8,831`.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (k, digit) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
