extension Interpreter {
    /// `PATH --json`: an object as one JSON object (its handle, then its
    /// fields in `inspect`'s order; objects inside by their handle), a
    /// list as an array, a value as itself.
    func json(_ resolved: Resolved) -> String {
        switch resolved {
        case .value(let value): return Self.json(value)
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let object):
            var members = ["\"handle\":" + Self.json(.string(object.handle))]
            for name in object.fieldNames {
                guard let field = try? object.field(name, argument: nil, in: handles) else { continue }
                let text: String =
                    switch field {
                    case .object(let inner): Self.json(.string(inner.handle))
                    default: json(field)
                    }
                members.append(Self.json(.string(name)) + ":" + text)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func json(_ value: Value) -> String {
        switch value {
        case .none: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .string(let s): return Format.quoted(s)
        }
    }
}
