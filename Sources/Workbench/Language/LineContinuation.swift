/// Multi-line input: a line that ends in `\` (outside quotes and comments),
/// or that leaves a quote open, goes on with the next line — in the REPL
/// (prompt `...>`) and in scripts.
package enum LineContinuation {
    /// Whether `text` goes on with the next line.
    package static func continues(_ text: String) -> Bool {
        state(of: text) != .complete
    }

    /// `text` and the line after it as one: a trailing `\` becomes a space;
    /// inside an open quote the line break is kept.
    package static func join(_ text: String, _ next: String) -> String {
        switch state(of: text) {
        case .backslash: String(text.dropLast()) + " " + next.drop { $0 == " " || $0 == "\t" }
        case .openQuote: text + "\n" + next
        case .complete: text + " " + next
        }
    }

    enum State { case complete, backslash, openQuote }

    /// Follows the tokenizer's rules: `"…"` with `\` escapes, `'…'` without,
    /// a `#` starting a word outside quotes comments out the rest.
    static func state(of text: String) -> State {
        text.isPlainASCII ? scan(text.utf8) : scan(text)
    }

    static func scan<Units: BidirectionalCollection>(_ text: Units) -> State where Units.Element: LineUnit {
        typealias Unit = Units.Element
        let doubleQuote = Unit(ascii: "\"")
        let backslash = Unit(ascii: "\\")
        var quote: Unit?
        var escaped = false
        var previous = Unit(ascii: " ")
        for character in text {
            defer { previous = character }
            if let open = quote {
                if escaped {
                    escaped = false
                    continue
                }
                if character == backslash && open == doubleQuote {
                    escaped = true
                    continue
                }
                if character == open { quote = nil }
                continue
            }
            if character == Unit(ascii: "#") && previous.isWhitespace { return .complete }
            if character == doubleQuote || character == Unit(ascii: "'") { quote = character }
        }
        if quote != nil { return .openQuote }
        return text.last == backslash ? .backslash : .complete
    }
}
