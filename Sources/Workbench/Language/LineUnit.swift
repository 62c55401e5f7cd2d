/// What the tokenizer, `LineContinuation` and `PathExpression` read a line as: its
/// `Character`s, or, for a line of ASCII without a carriage return (where
/// each byte is one `Character`), its bytes, which is much cheaper: every
/// step reads its line this way, and almost every line is ASCII.
protocol LineUnit: Equatable {
    /// `Character.isWhitespace`.
    var isWhitespace: Bool { get }
    /// What a path's names are made of (`PathExpression.isIdentifierCharacter`).
    var isIdentifierCharacter: Bool { get }
    init(ascii: Unicode.Scalar)
    /// The text of `units`, as `String(characters)` makes it.
    static func text(_ units: some Collection<Self>) -> String
}

extension Character: LineUnit {
    init(ascii: Unicode.Scalar) { self.init(ascii) }
    var isIdentifierCharacter: Bool { PathExpression.isIdentifierCharacter(self) }
    static func text(_ units: some Collection<Character>) -> String { String(units) }
}

extension UInt8: LineUnit {
    var isWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
    var isIdentifierCharacter: Bool { PathExpression.isIdentifierCharacter(Character(Unicode.Scalar(self))) }
    static func text(_ units: some Collection<UInt8>) -> String { String(decoding: units, as: UTF8.self) }
}

extension String {
    /// Whether each byte of the line is one `Character` (ASCII, no CR: CR
    /// LF is one `Character`), so that it can be read as `[UInt8]`.
    var isPlainASCII: Bool { utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
}
