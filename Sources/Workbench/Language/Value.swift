/// A value that inspection shows and `expect` compares.
enum Value: Hashable, Sendable, CustomStringConvertible {
    case none
    case bool(Bool)
    case int(Int64)
    case string(String)
    case list([Value])

    /// How inspection prints it: strings bare, lists in brackets.
    var description: String {
        switch self {
        case .none: "none"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .string(let s): s
        case .list(let items): "[" + items.map(\.quotedDescription).joined(separator: ", ") + "]"
        }
    }

    /// Strings quoted when they would not read back as one word.
    var quotedDescription: String {
        if case .string(let s) = self, s.isEmpty || s.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "," }) {
            // Foundation's replacingOccurrences is slow; most texts need none.
            guard s.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\"" }) else { return "\"" + s + "\"" }
            return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return description
    }

    /// A string in double quotes, escaped, whatever it holds.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
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

    /// Whether `found OP expected` holds.
    func holds(_ found: Value, _ expected: Value) -> Bool {
        switch self {
        case .equal: return Self.same(found, expected)
        case .notEqual: return !Self.same(found, expected)
        case .contains:
            switch (found, expected) {
            case (.list(let items), _): return items.contains { Self.same($0, expected) }
            case (.string(let s), _): return s.contains(expected.description)
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
        return a.description == b.description
    }
}
