/// JSON written by hand, as `JSONEncoder` writes it with sorted keys and
/// without escaping slashes. Its punctuation goes in byte by byte, into
/// room reserved at once: a recorded send writes eight kinds (its events'
/// and its traffic's), and appending each `{`, `,` and `:` as a string,
/// into an array grown as it went, was half of what a kind cost (issue 31).
package struct JSONText {
    package enum Value {
        case text(String)
        case number(Int64)
        case flag(Bool)
    }

    private var bytes: [UInt8] = []

    package init() {
        // Room for a kind (`{"request":{"answer":"ok","name":"sendMessage"}}`).
        bytes.reserveCapacity(96)
    }

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `{"name":{`, the start of a case with fields.
    package mutating func open(_ name: String) {
        bytes.append(UInt8(ascii: "{"))
        key(name)
        bytes.append(UInt8(ascii: "{"))
    }

    package mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "}"))
    }

    /// `{"name":{…}}`: a case and its fields, given in the order of their
    /// keys, those that are nil left out (as `encodeIfPresent` does).
    package mutating func object(_ name: String, _ values: KeyValuePairs<String, Value?>) {
        open(name)
        var first = true
        for (key, value) in values {
            guard let value else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            field(key, value)
        }
        close()
    }

    /// `{"name":{"name":…}}`: a case with one unlabelled value, keyed by
    /// the case's name (its `…CodingKeys`), not by position (`_0`).
    package mutating func wrapping(_ name: String, _ value: (inout JSONText) -> Void) {
        open(name)
        key(name)
        value(&self)
        close()
    }

    /// `"a":"x","b":"y"`, in the order of their keys.
    package mutating func fields(_ fields: [String: String]) {
        for (index, name) in fields.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
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
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            if utf8.count == 1 { bytes.append(utf8[0]) } else { bytes.append(contentsOf: utf8) }
        }
    }

    package mutating func string(_ value: String) { TapeJSON.append(value, to: &bytes) }
}
