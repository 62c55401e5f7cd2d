extension StringProtocol {
    /// Whether `word` (ASCII) occurs in the string, compared byte for byte:
    /// a cheap test for what runs on every step. Foundation's `contains` of
    /// a string is a search with options, and `firstRange(of:)` a generic
    /// one, each tens of thousands of instructions on a long line.
    package func containsASCII(_ word: StaticString) -> Bool {
        word.withUTF8Buffer { needle in
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
}
