/// A value that inspection shows and `expect` compares.
enum Value: Hashable, Sendable, CustomStringConvertible {
    case none
    case bool(Bool)
    case int(Int64)
    case string(String)
    case list([Value])

    /// How inspection prints it (``Format``): strings quoted and escaped,
    /// lists in brackets.
    var description: String {
        switch self {
        case .string(let s): Format.quoted(s)
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        default: text
        }
    }

    /// The value as a word, strings unquoted: what comparisons look at.
    var text: String {
        switch self {
        case .none: "none"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .string(let s): s
        case .list: description
        }
    }

    /// A value written in an `expect` line.
    static func literal(_ token: Token) -> Value {
        if token.quoted { return .string(token.text) }
        switch token.text {
        case "none": return .none
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return Int64(token.text).map(Value.int) ?? .string(token.text)
        }
    }
}

/// The operators of `expect`.
enum Comparison: String, CaseIterable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains

    /// Whether `found OP expected` holds. A number and a quoted number
    /// compare as numbers with every operator; a number against a word is
    /// the script's mistake, not a failed expectation.
    func holds(_ found: Value, _ expected: Value) throws(ScriptError) -> Bool {
        var found = found
        var expected = expected
        if self != .contains {
            switch (found, expected) {
            case (.int, .string(let s)):
                guard let n = Int64(s) else {
                    throw ScriptError(
                        .badValue, "cannot compare a number with \(expected.description): write a number, as in \(rawValue) 2")
                }
                expected = .int(n)
            case (.string(let s), .int):
                guard let n = Int64(s) else {
                    throw ScriptError(.badValue, "cannot compare \(found.description) with a number: the value there is a string")
                }
                found = .int(n)
            default: break
            }
        }
        switch self {
        case .equal: return Self.same(found, expected)
        case .notEqual: return !Self.same(found, expected)
        case .contains:
            switch (found, expected) {
            case (.list(let items), _): return items.contains { Self.same($0, expected) }
            case (.string(let s), .string(let t)): return s.contains(t)
            case (.string(let s), _): return s.contains(expected.text)
            default: return false
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order: Int
            switch (found, expected) {
            case (.int(let a), .int(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
            case (.string(let a), .string(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
            default: return false
            }
            switch self {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// Equality that lets `3` match "3" and `none` match an empty list.
    private static func same(_ a: Value, _ b: Value) -> Bool {
        if a == b { return true }
        return a.text == b.text
    }
}
