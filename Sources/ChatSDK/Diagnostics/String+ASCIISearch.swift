import Foundation

extension StringProtocol {
    /// Whether `word` (ASCII) occurs in the string, compared byte for byte:
    /// a cheap test for what runs on every step. Foundation's `contains` of
    /// a string is a search with options, and `firstRange(of:)` a generic
    /// one, each tens of thousands of instructions on a long line.
    package func containsASCII(_ word: StaticString) -> Bool {
        word.withUTF8Buffer { needle in
            // A native string's bytes, searched in place by the C library:
            // through this generic extension's `Collection` calls, each
            // byte cost a look-up of metadata (~4 k instructions a short
            // word, the workbench asks it of a send's every token: issue 31).
            if let found = utf8.withContiguousStorageIfAvailable({ Self.find(needle, in: $0) }) { return found }
            guard let first = needle.first else { return true }
            let bytes = utf8
            var from = bytes.startIndex
            while let at = bytes[from...].firstIndex(of: first) {
                if bytes[at...].starts(with: needle) { return true }
                from = bytes.index(after: at)
            }
            return false
        }
    }

    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, let start = needle.baseAddress else { return true }
        guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var from = 0
        while from <= last, let found = memchr(base + from, Int32(first), last - from + 1) {
            if memcmp(found, start, needle.count) == 0 { return true }
            from = UnsafeRawPointer(base).distance(to: found) + 1
        }
        return false
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Where `needle` first starts in these bytes, at `start` or after: what
    /// every redacted text is asked once a secret is known (the tape's API
    /// key, from the first request on), and a server session's step output
    /// of each value minted in it, by the C library's `memchr` and `memcmp`
    /// rather than byte by byte through `Collection` (issue 31).
    package func firstOccurrence(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, let base = baseAddress, start >= 0, count - start >= needle.count else { return nil }
        return needle.withUnsafeBufferPointer { needle -> Int? in
            guard let pattern = needle.baseAddress else { return nil }
            let last = count - needle.count
            var from = start
            while from <= last, let found = memchr(base + from, Int32(first), last - from + 1) {
                let at = UnsafeRawPointer(base).distance(to: found)
                if memcmp(found, pattern, needle.count) == 0 { return at }
                from = at + 1
            }
            return nil
        }
    }
}
