/// The redactor's patterns read as bytes, for ASCII text: the same matches
/// as the regular expressions (`Redactor.Expressions`), found in one pass
/// each without building an `NSString` or matching objects. On ASCII, ICU's
/// `\s` is `[\t\n\u{0B}\f\r ]` and its word characters (`\b`) are
/// `[A-Za-z0-9_]`.
extension Redactor {
    /// A secret the scanner found: the bytes its placeholder replaces, and
    /// the secret's own bytes (a quoted option value's without its quotes).
    struct Found: Equatable {
        var range: Range<Int>
        var secret: Range<Int>
    }

    /// `bytes`, which are ASCII, with their secrets replaced; nil when
    /// they hold none. Only the `possible` passes run (``Survey``): a pass
    /// whose anchor the text lacks cannot match, and no placeholder makes one.
    func scan(_ bytes: [UInt8], _ possible: Pass) -> [UInt8]? {
        var bytes = bytes
        var changed = false
        for (pass, find, kind) in Self.passes where possible.contains(pass) {
            let found = find(bytes)
            guard !found.isEmpty else { continue }
            bytes = substitute(found, in: bytes, kind: kind)
            changed = true
        }
        return changed ? bytes : nil
    }

    /// The patterns in the order they apply, with their placeholders' kind.
    private static let passes: [(Pass, @Sendable ([UInt8]) -> [Found], String)] = [
        (.jwt, jwts, "jwt"), (.option, optionValues, "secret"), (.token, tokens, "token"), (.apiKey, apiKeys, "secret"),
    ]

    /// The scanner's passes, one per pattern.
    struct Pass: OptionSet {
        let rawValue: UInt8
        /// Needs `eyJ`.
        static let jwt = Pass(rawValue: 1)
        /// Needs `--`.
        static let option = Pass(rawValue: 2)
        /// Needs `t-`, `t_`, `k-` or `k_`.
        static let token = Pass(rawValue: 4)
        /// Needs `y"` (`"apiKey":"`) or `re"` (`"signature":"`).
        static let apiKey = Pass(rawValue: 8)
    }

    /// What one look at each byte of a text tells: whether it is ASCII
    /// (the scanner's), and which passes may match in it (the anchors each
    /// needs). Most text recorded holds none, and a tape body holds one
    /// or two (issue 31: every body was read by every pass).
    struct Survey {
        var isASCII: Bool
        var passes: Pass = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var high: UInt8 = 0
            var previous: UInt8 = 0
            var beforePrevious: UInt8 = 0
            for byte in bytes {
                high |= byte
                switch byte {
                case UInt8(ascii: "-"):
                    if previous == UInt8(ascii: "-") { passes.insert(.option) }
                    if previous == UInt8(ascii: "t") || previous == UInt8(ascii: "k") { passes.insert(.token) }
                case UInt8(ascii: "_"):
                    if previous == UInt8(ascii: "t") || previous == UInt8(ascii: "k") { passes.insert(.token) }
                case UInt8(ascii: "J"):
                    if previous == UInt8(ascii: "y"), beforePrevious == UInt8(ascii: "e") { passes.insert(.jwt) }
                case UInt8(ascii: "\""):
                    if previous == UInt8(ascii: "y") || (previous == UInt8(ascii: "e") && beforePrevious == UInt8(ascii: "r")) {
                        passes.insert(.apiKey)
                    }
                default: break
                }
                beforePrevious = previous
                previous = byte
            }
            isASCII = high < 0x80
        }
    }

    /// `bytes` with each found range replaced by its secret's placeholder,
    /// numbered from the last to the first as the expressions did.
    private func substitute(_ found: [Found], in bytes: [UInt8], kind: String) -> [UInt8] {
        var names: [String] = []
        names.reserveCapacity(found.count)
        for item in found.reversed() {
            names.append(placeholder(for: String(decoding: bytes[item.secret], as: UTF8.self), kind: kind))
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 12 * found.count)
        var start = 0
        for (item, name) in zip(found, names.reversed()) {
            result += bytes[start..<item.range.lowerBound]
            result += name.utf8
            start = item.range.upperBound
        }
        result += bytes[start...]
        return result
    }

    // MARK: The patterns

    /// `eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*`
    static func jwts(_ bytes: [UInt8]) -> [Found] {
        matches(in: bytes, at: (UInt8(ascii: "e"), UInt8(ascii: "e"))) { start in
            guard startsJWTPart(bytes, at: start) else { return nil }
            let firstDot = base64URLEnd(bytes, from: start + 3)
            guard firstDot < bytes.count, bytes[firstDot] == UInt8(ascii: "."), startsJWTPart(bytes, at: firstDot + 1) else {
                return nil
            }
            let secondDot = base64URLEnd(bytes, from: firstDot + 4)
            guard secondDot < bytes.count, bytes[secondDot] == UInt8(ascii: ".") else { return nil }
            let end = base64URLEnd(bytes, from: secondDot + 1)
            return (end, Found(range: start..<end, secret: start..<end))
        }
    }

    /// `(--(?:NAME|…))(\s+|=)("[^"]*"|'[^']*'|\S+)` with the secret options'
    /// names, keeping values that are placeholders (`<…`) or the usage's
    /// value names (`S`, `T]`): the secret is the value without its quotes.
    static func optionValues(_ bytes: [UInt8]) -> [Found] {
        matches(in: bytes, at: (UInt8(ascii: "-"), UInt8(ascii: "-"))) { start in
            guard start + 2 < bytes.count, bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: "-"),
                let value = optionValue(bytes, afterDashesAt: start + 2)
            else { return nil }
            let text = bytes[value]
            if text.first == UInt8(ascii: "<")
                || valueNames.contains(String(decoding: trimmed(text, of: [UInt8(ascii: "]"), UInt8(ascii: ")")]), as: UTF8.self))
            {
                return (value.upperBound, nil)
            }
            let secret = trimmed(text, of: [UInt8(ascii: "\""), UInt8(ascii: "'")])
            return (value.upperBound, Found(range: value, secret: secret.startIndex..<secret.endIndex))
        }
    }

    /// The value of a secret option whose name starts at `nameStart`, if
    /// one follows: the names in the expression's order, the first that
    /// matches wins.
    private static func optionValue(_ bytes: [UInt8], afterDashesAt nameStart: Int) -> Range<Int>? {
        let count = bytes.count
        for name in secretOptions {
            let utf8 = name.utf8
            guard nameStart + utf8.count < count, bytes[nameStart..<nameStart + utf8.count].elementsEqual(utf8) else { continue }
            let separator = nameStart + utf8.count
            var valueStart: Int
            if isSpace(bytes[separator]) {
                valueStart = separator + 1
                while valueStart < count, isSpace(bytes[valueStart]) { valueStart += 1 }
            } else if bytes[separator] == UInt8(ascii: "=") {
                valueStart = separator + 1
            } else {
                continue
            }
            guard valueStart < count, !isSpace(bytes[valueStart]) else { continue }
            let first = bytes[valueStart]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'"),
                let closing = bytes[(valueStart + 1)...].firstIndex(of: first)
            {
                return valueStart..<closing + 1
            }
            var end = valueStart + 1
            while end < count, !isSpace(bytes[end]) { end += 1 }
            return valueStart..<end
        }
        return nil
    }

    /// `\b(?:at|rt|st|ak)[-_][A-Za-z0-9]{8,}\b`
    static func tokens(_ bytes: [UInt8]) -> [Found] {
        matches(in: bytes, at: (UInt8(ascii: "-"), UInt8(ascii: "_")), offset: 2) { start in
            guard start + 11 <= bytes.count, start == 0 || !isWord(bytes[start - 1]) else { return nil }
            let first = bytes[start]
            let second = bytes[start + 1]
            let prefix =
                (second == UInt8(ascii: "t")
                    && (first == UInt8(ascii: "a") || first == UInt8(ascii: "r") || first == UInt8(ascii: "s")))
                || (first == UInt8(ascii: "a") && second == UInt8(ascii: "k"))
            guard prefix, bytes[start + 2] == UInt8(ascii: "-") || bytes[start + 2] == UInt8(ascii: "_") else { return nil }
            var end = start + 3
            while end < bytes.count, isAlphanumeric(bytes[end]) { end += 1 }
            guard end - (start + 3) >= 8, end == bytes.count || !isWord(bytes[end]) else { return nil }
            return (end, Found(range: start..<end, secret: start..<end))
        }
    }

    /// `"(?:apiKey|signature)":"([^"\\]*)"`, keeping values that are
    /// placeholders (`<…`).
    static func apiKeys(_ bytes: [UInt8]) -> [Found] {
        matches(in: bytes, at: (UInt8(ascii: "\""), UInt8(ascii: "\""))) { start in
            guard bytes[start] == UInt8(ascii: "\""),
                let valueStart = keyEnd(bytes, at: start + 1, "apiKey\":\"") ?? keyEnd(bytes, at: start + 1, "signature\":\"")
            else { return nil }
            var end = valueStart
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            let kept = valueStart < end && bytes[valueStart] == UInt8(ascii: "<")
            return (end + 1, kept ? nil : Found(range: valueStart..<end, secret: valueStart..<end))
        }
    }

    /// The matches of a pattern as a regular expression finds them: tried
    /// at each position from the left, the search going on after the end of
    /// each match. `match(start)` gives the end of the match at `start` and
    /// what it found (nil for a match that keeps its text), or nil for none.
    /// It is asked only where a match can start: where one of the `anchor`
    /// bytes is, `offset` bytes in (every match has one there).
    private static func matches(
        in bytes: [UInt8], at anchor: (UInt8, UInt8), offset: Int = 0, _ match: (Int) -> (end: Int, found: Found?)?
    ) -> [Found] {
        var found: [Found] = []
        var index = offset
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            guard byte == anchor.0 || byte == anchor.1, let (end, item) = match(index - offset) else {
                index += 1
                continue
            }
            if let item { found.append(item) }
            // The next try starts at the end of this match.
            index = end + offset
        }
        return found
    }

    // MARK: Bytes

    private static func keyEnd(_ bytes: [UInt8], at start: Int, _ key: StaticString) -> Int? {
        let count = key.utf8CodeUnitCount
        guard start + count <= bytes.count else { return nil }
        return key.withUTF8Buffer { bytes[start..<start + count].elementsEqual($0) } ? start + count : nil
    }

    private static func startsJWTPart(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 3 <= bytes.count && bytes[index] == UInt8(ascii: "e") && bytes[index + 1] == UInt8(ascii: "y")
            && bytes[index + 2] == UInt8(ascii: "J")
    }

    /// Where the run of `[A-Za-z0-9_-]` from `index` ends.
    private static func base64URLEnd(_ bytes: [UInt8], from index: Int) -> Int {
        var end = index
        while end < bytes.count, isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: "_") || bytes[end] == UInt8(ascii: "-") {
            end += 1
        }
        return end
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>, of set: [UInt8]) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
    }

    private static func isWord(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_")
    }
}
