/// A line written as a change of the line before it: the prefix they
/// share, then what is new, with at most one run of bytes copied from the
/// line before (the longest one they share). A watcher's consecutive
/// emission lines mostly repeat each other (`20 items: m5 … · m4 … · m3 …`
/// after `20 items: m4 … · m3 … · m2 …`): their history keeps a third of
/// the bytes (issue 17).
///
/// Encoded: `0` then the line, or `1`, four 16-bit little-endian numbers
/// (shared prefix, first new part's length, offset and length of the
/// copied run), the first new part, and the rest of the line.
enum LineDelta {
    /// The shortest copied run worth its header.
    static let minimumRun = 8
    /// Above this many byte comparisons, no run is looked for.
    static let searchLimit = 1 << 20

    static func encode(_ line: some Collection<UInt8>, after previous: [UInt8]?) -> [UInt8] {
        let line = Array(line)
        guard let previous, line.count <= Int(UInt16.max), previous.count <= Int(UInt16.max) else { return [0] + line }
        var prefix = 0
        while prefix < line.count, prefix < previous.count, line[prefix] == previous[prefix] { prefix += 1 }
        let rest = line[prefix...]
        var run = (length: 0, restEnd: 0, previousEnd: 0)
        if rest.count * previous.count <= searchLimit {
            run = longestCommonRun(Array(rest), previous)
        }
        if run.length < minimumRun { run = (0, rest.count, 0) }
        let firstEnd = prefix + run.restEnd - run.length
        var encoded: [UInt8] = [1]
        encoded.reserveCapacity(9 + line.count - prefix - run.length)
        for number in [prefix, run.restEnd - run.length, run.previousEnd - run.length, run.length] {
            encoded.append(UInt8(number & 0xFF))
            encoded.append(UInt8(number >> 8))
        }
        encoded.append(contentsOf: line[prefix..<firstEnd])
        encoded.append(contentsOf: line[(firstEnd + run.length)...])
        return encoded.count < line.count + 1 ? encoded : [0] + line
    }

    /// The longest run of bytes `rest` and `previous` share: its length and
    /// where it ends in each (dynamic programming by rows, one row kept).
    private static func longestCommonRun(_ rest: [UInt8], _ previous: [UInt8]) -> (length: Int, restEnd: Int, previousEnd: Int) {
        var best = (length: 0, restEnd: 0, previousEnd: 0)
        var row = [UInt16](repeating: 0, count: previous.count + 1)
        rest.withUnsafeBufferPointer { rest in
            previous.withUnsafeBufferPointer { previous in
                row.withUnsafeMutableBufferPointer { row in
                    for i in 0..<rest.count {
                        let byte = rest[i]
                        // Right to left, so that row[j] still holds the row above.
                        var j = previous.count
                        while j > 0 {
                            if byte == previous[j - 1] {
                                let length = row[j - 1] &+ 1
                                row[j] = length
                                if Int(length) > best.length { best = (Int(length), i + 1, j) }
                            } else {
                                row[j] = 0
                            }
                            j -= 1
                        }
                    }
                }
            }
        }
        return best
    }

    /// The line `encoded` holds, given the line before it (needed unless
    /// it was written whole).
    static func decode(_ encoded: ArraySlice<UInt8>, after previous: [UInt8]) -> [UInt8] {
        let start = encoded.startIndex
        guard encoded[start] == 1 else { return Array(encoded.dropFirst()) }
        func number(_ n: Int) -> Int { Int(encoded[start + 1 + 2 * n]) | Int(encoded[start + 2 + 2 * n]) << 8 }
        let (prefix, first, offset, length) = (number(0), number(1), number(2), number(3))
        let body = start + 9
        var line = Array(previous[..<prefix])
        line.reserveCapacity(prefix + encoded.count - 9 + length)
        line.append(contentsOf: encoded[body..<(body + first)])
        line.append(contentsOf: previous[offset..<(offset + length)])
        line.append(contentsOf: encoded[(body + first)...])
        return line
    }
}
