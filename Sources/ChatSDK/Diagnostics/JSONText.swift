/// JSON written by hand, as `JSONEncoder` writes it with sorted keys and
/// without escaping slashes.
package struct JSONText {
    package enum Value {
        case text(String)
        case number(Int64)
        case flag(Bool)
    }

    private var bytes: [UInt8] = []

    package init() {}

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `{"name":{`, the start of a case with fields.
    package mutating func open(_ name: String) {
        raw("{")
        key(name)
        raw("{")
    }

    package mutating func close() { raw("}}") }

    /// `{"name":{…}}`: a case and its fields, given in the order of their
    /// keys, those that are nil left out (as `encodeIfPresent` does).
    package mutating func object(_ name: String, _ values: KeyValuePairs<String, Value?>) {
        open(name)
        var first = true
        for (key, value) in values {
            guard let value else { continue }
            if !first { raw(",") }
            first = false
            field(key, value)
        }
        close()
    }

    /// `{"name":{"_0":…}}`: a case with one unlabelled value.
    package mutating func wrapping(_ name: String, _ value: (inout JSONText) -> Void) {
        open(name)
        key("_0")
        value(&self)
        close()
    }

    /// `"a":"x","b":"y"`, in the order of their keys.
    package mutating func fields(_ fields: [String: String]) {
        for (index, name) in fields.keys.sorted().enumerated() {
            if index > 0 { raw(",") }
            field(name, .text(fields[name] ?? ""))
        }
    }

    package mutating func field(_ name: String, _ value: Value) {
        key(name)
        switch value {
        case .text(let value): string(value)
        case .number(let value): raw(String(value))
        case .flag(let value): raw(value ? "true" : "false")
        }
    }

    package mutating func key(_ key: String) {
        string(key)
        raw(":")
    }

    package mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    package mutating func string(_ value: String) { TapeJSON.append(value, to: &bytes) }
}
