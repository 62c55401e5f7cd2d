import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation when there
    /// is nothing to trim: every step trims its line, and almost every line
    /// starts and ends with an ASCII character that is neither a space nor
    /// a tab (the only ASCII members of the set).
    var trimmingWhitespace: String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first < 0x80, last < 0x80, first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}
