import Foundation

/// `HANDLE[.field | .field(ARG) | [index]]...` — what inspection and
/// `expect` read.
struct PathExpression: Hashable, Sendable, CustomStringConvertible {
    enum Step: Hashable, Sendable {
        case field(String, argument: String?)
        case index(Int)
    }

    var root: String
    var steps: [Step]

    var description: String {
        root
            + steps.map { step in
                switch step {
                case .field(let name, let argument): "." + name + (argument.map { "(\($0))" } ?? "")
                case .index(let i): "[\(i)]"
                }
            }.joined()
    }

    static func isIdentifierCharacter(_ c: Character) -> Bool {
        // ASCII first: Unicode property lookups are most of a path's parse.
        if let ascii = c.asciiValue {
            switch ascii {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default: return false
            }
        }
        return c.isLetter || c.isNumber || c == "_" || c == "-"
    }

    /// Whether `text` looks like a path (an identifier, then steps).
    static func looksLikePath(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return (try? parse(text)) != nil
    }

    static func parse(_ text: String) throws(ScriptError) -> PathExpression {
        text.isPlainASCII ? try parse(text, units: Array(text.utf8)) : try parse(text, units: Array(text))
    }

    /// `text` read as its `Character`s or, when it is plain ASCII, its bytes.
    static func parse<Unit: LineUnit>(_ text: String, units characters: [Unit]) throws(ScriptError) -> PathExpression {
        var index = 0
        func identifier() throws(ScriptError) -> String {
            let start = index
            while index < characters.count, characters[index].isIdentifierCharacter { index += 1 }
            guard index > start else {
                throw ScriptError(.syntax, "expected a name at column \(start + 1) of \"\(text)\"")
            }
            return Unit.text(characters[start..<index])
        }
        let root = try identifier()
        var steps: [Step] = []
        while index < characters.count {
            switch characters[index] {
            case Unit(ascii: "."):
                index += 1
                let name = try identifier()
                var argument: String?
                if index < characters.count, characters[index] == Unit(ascii: "(") {
                    guard let close = characters[index...].firstIndex(of: Unit(ascii: ")")) else {
                        throw ScriptError(.syntax, "missing ) in \"\(text)\"")
                    }
                    argument = Unit.text(characters[(index + 1)..<close]).trimmingCharacters(in: .whitespaces)
                    index = close + 1
                }
                steps.append(.field(name, argument: argument))
            case Unit(ascii: "["):
                guard let close = characters[index...].firstIndex(of: Unit(ascii: "]")),
                    let value = Int(Unit.text(characters[(index + 1)..<close])), value >= 0
                else {
                    throw ScriptError(.syntax, "an index is a whole number in brackets, as in w1[0], in \"\(text)\"")
                }
                steps.append(.index(value))
                index = close + 1
            case Unit(ascii: "("):
                guard let close = characters[index...].firstIndex(of: Unit(ascii: ")")) else {
                    throw ScriptError(.syntax, "missing ) in \"\(text)\"")
                }
                // root(ARG) is root.ARG's shorthand for functions like sessions(alice)
                let argument = Unit.text(characters[(index + 1)..<close])
                if case .field(let name, nil)? = steps.last {
                    steps[steps.count - 1] = .field(name, argument: argument)
                } else {
                    throw ScriptError(.syntax, "unexpected ( in \"\(text)\"")
                }
                index = close + 1
            default:
                throw ScriptError(.syntax, "unexpected \"\(Unit.text([characters[index]]))\" at column \(index + 1) of \"\(text)\"")
            }
        }
        return PathExpression(root: root, steps: steps)
    }
}
