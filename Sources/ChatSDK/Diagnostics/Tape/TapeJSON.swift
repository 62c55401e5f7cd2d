import Foundation

/// Writes a tape body's JSON byte by byte: the bytes `JSONEncoder` makes
/// with ``TapeCoding``'s options (sorted keys, slashes not escaped, no
/// spaces), without its generic path, which was half of what a recorded
/// `send` added (issue 31). The writers of the tape's types
/// (`TapeJSON+Wire.swift`) name their keys in sorted (byte) order and leave
/// out a nil optional, as the synthesised `Encodable` conformances do; a
/// test compares their bytes with `JSONEncoder`'s for every case.
package struct TapeJSON {
    package private(set) var bytes: [UInt8] = []
    /// Whether the object or array being written has no member yet.
    private var first = true

    package init() {
        bytes.reserveCapacity(256)
    }

    /// The bytes written, as a tape body.
    package var data: Data { Data(bytes) }

    // MARK: Structure

    /// `{`, then members (``key(_:)`` and a value each), then ``endObject()``.
    package mutating func beginObject() { open(UInt8(ascii: "{")) }

    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// `[`, then values (each after ``element()``), then ``endArray()``.
    package mutating func beginArray() { open(UInt8(ascii: "[")) }

    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        first = true
    }

    /// A closed object or array is a member of the one around it.
    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        first = false
    }

    /// `{…}`, its members written by `members`.
    package mutating func object(_ members: (inout TapeJSON) -> Void) {
        beginObject()
        members(&self)
        endObject()
    }

    /// `"name":{…}`: a member whose value is an object.
    package mutating func object(_ name: StaticString, _ members: (inout TapeJSON) -> Void) {
        key(name)
        object(members)
    }

    /// `"name":{"_0":…}`: an enum case with one unlabelled value, as a
    /// member of the enum's object.
    package mutating func wrapped(_ name: StaticString, _ value: (inout TapeJSON) -> Void) {
        object(name) {
            $0.key("_0")
            value(&$0)
        }
    }

    /// `"name":[…]`, a value for each element.
    package mutating func array<Element>(_ name: StaticString, _ elements: [Element], _ value: (inout TapeJSON, Element) -> Void) {
        key(name)
        beginArray()
        for element in elements {
            self.element()
            value(&self, element)
        }
        endArray()
    }

    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        int(value)
    }

    package mutating func field(_ name: StaticString, _ value: Int) { field(name, Int64(value)) }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A member left out when nil, as `encodeIfPresent` does.
    package mutating func field(_ name: StaticString, _ value: String?) {
        if let value { field(name, value) }
    }

    package mutating func field(_ name: StaticString, _ value: Int64?) {
        if let value { field(name, value) }
    }

    package mutating func field(_ name: StaticString, _ value: Bool?) {
        if let value { field(name, value) }
    }

    /// Before each value of an array.
    package mutating func element() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// A member's key (ASCII, nothing to escape), before its value.
    package mutating func key(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    // MARK: Values

    package mutating func string(_ value: String) {
        Self.append(value, to: &bytes)
    }

    /// `value` as a JSON string, quoted and escaped as `JSONEncoder` does
    /// (slashes and non-ASCII as they are), at the end of `bytes`.
    package static func append(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                escape(byte, to: &bytes)
                clean = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How `JSONEncoder` escapes a byte: by name where JSON has one, else `\u00XX`.
    private static func escape(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    package mutating func int(_ value: Int64) {
        // Up to 15 digits make a small string, held without allocating.
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func int(_ value: Int) { int(Int64(value)) }

    package mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    /// Bytes as `JSONEncoder` writes `Data` by default: a base64 string.
    package mutating func data(_ value: Data) {
        string(value.base64EncodedString())
    }

    /// A value this writer has no writer for (a dictionary, whose keys are
    /// data), through `JSONEncoder` with the tape's options: a value's JSON
    /// is the same bytes alone as inside another.
    package mutating func encoded(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = TapeCoding.formatting
        // Encoding a dictionary of strings, or an array of them, cannot fail.
        bytes.append(contentsOf: (try? encoder.encode(value)) ?? Data("null".utf8))
        first = false
    }
}
