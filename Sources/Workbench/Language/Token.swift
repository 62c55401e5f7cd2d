/// A word of a command line: bare, or quoted (which keeps spaces and is
/// never taken for a verb, option or handle).
struct Token: Hashable, Sendable {
    var text: String
    var quoted: Bool
    /// Column (1-based) where the token starts, for error messages.
    var column: Int
}

/// Splits a line into tokens. Quotes are `"` or `'`; inside double quotes
/// `\"`, `\\` and `\n` are escapes. A `#` that starts a word, outside
/// quotes, starts a comment that runs to the end of the line (`#` inside a
/// word, as in `<jwt#1>`, is part of the word).
enum Tokenizer {
    static func tokenize(_ line: String) throws(ScriptError) -> [Token] {
        line.isPlainASCII ? try tokenize(units: Array(line.utf8)) : try tokenize(units: Array(line))
    }

    static func tokenize<Unit: LineUnit>(units characters: [Unit]) throws(ScriptError) -> [Token] {
        let doubleQuote = Unit(ascii: "\"")
        let singleQuote = Unit(ascii: "'")
        let backslash = Unit(ascii: "\\")
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
                continue
            }
            if character == Unit(ascii: "#") { break }
            let start = index
            var text: [Unit] = []
            if character == doubleQuote || character == singleQuote {
                let quote = character
                index += 1
                var closed = false
                while index < characters.count {
                    let c = characters[index]
                    if c == quote {
                        closed = true
                        index += 1
                        break
                    }
                    if c == backslash && quote == doubleQuote && index + 1 < characters.count {
                        let next = characters[index + 1]
                        switch next {
                        case Unit(ascii: "n"): text.append(Unit(ascii: "\n"))
                        case Unit(ascii: "t"): text.append(Unit(ascii: "\t"))
                        default: text.append(next)
                        }
                        index += 2
                        continue
                    }
                    text.append(c)
                    index += 1
                }
                guard closed else {
                    throw ScriptError(
                        .syntax, "unterminated quote: the string starting at column \(start + 1) has no closing \(Unit.text([quote]))")
                }
                tokens.append(Token(text: Unit.text(text), quoted: true, column: start + 1))
            } else {
                while index < characters.count, !characters[index].isWhitespace {
                    if characters[index] == doubleQuote || characters[index] == singleQuote {
                        // A quote inside a word (key="a b") joins the word.
                        let quote = characters[index]
                        guard let close = characters[(index + 1)...].firstIndex(of: quote) else {
                            throw ScriptError(
                                .syntax,
                                "unterminated quote: the string starting at column \(index + 1) has no closing \(Unit.text([quote]))")
                        }
                        text.append(contentsOf: characters[(index + 1)..<close])
                        index = close + 1
                        continue
                    }
                    text.append(characters[index])
                    index += 1
                }
                tokens.append(Token(text: Unit.text(text), quoted: false, column: start + 1))
            }
        }
        return tokens
    }
}
