extension TrafficEntry {
    /// A call of the other side (the app's backend, the agent) as the
    /// workbench made it (issue 30): its name and typed arguments. A replay
    /// from the tape compares calls by these values; ``rendering``
    /// (`agentSay(c-1, "Hello")`) is only for people.
    package struct Call: Sendable, Hashable, Codable {
        package var name: String
        package var arguments: [Argument]

        package init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }

        /// `agentSay(c-1, "Hello")`.
        package var rendering: String { "\(name)(\(arguments.map(\.rendering).joined(separator: ", ")))" }

        /// Each text argument passed through `redact`, from the last to the
        /// first (as the redactor numbers a line's placeholders).
        func redacted(_ redact: (String) -> String) -> Self {
            Self(name, arguments.reversed().map { $0.redacted(redact) }.reversed())
        }
    }

    /// One argument of a ``Call``, by what it is.
    package enum Argument: Sendable, Hashable {
        /// An id, a name or a word, shown as it is: `c-1`, `alice`, `image`.
        case word(String)
        /// A text someone wrote, shown quoted: `"Hello"`.
        case text(String)
        case flag(Bool)
        /// A duration: `100ms`.
        case milliseconds(Int64)
        /// A setting and its value: `maxAttachmentBytes=10`.
        case setting(key: String, value: String)
        /// Bytes, by their count and the start of their SHA-256:
        /// `69 bytes sha256:2e9b06dc65a4`.
        case bytes(count: Int, sha256: String)

        package var rendering: String {
            switch self {
            case .word(let word): word
            case .text(let text): text.debugDescription
            case .flag(let flag): String(flag)
            case .milliseconds(let milliseconds): "\(milliseconds)ms"
            case .setting(let key, let value): "\(key)=\(value)"
            case .bytes(let count, let sha256): "\(count) bytes sha256:\(sha256)"
            }
        }

        func redacted(_ redact: (String) -> String) -> Self {
            switch self {
            case .word(let word): .word(redact(word))
            case .text(let text): .text(redact(text))
            case .setting(let key, let value):
                // The value is right of the key on the line: redacted first.
                { value in .setting(key: redact(key), value: value) }(redact(value))
            case .flag, .milliseconds, .bytes: self
            }
        }
    }
}

extension TrafficEntry.Argument: Codable {
    /// One key, its kind, and its value: `{"text":"Hello"}`,
    /// `{"setting":{"key":"k","value":"v"}}`.
    private enum Key: String, CodingKey { case word, text, flag, milliseconds, setting, bytes }
    private struct Setting: Codable, Hashable {
        var key: String
        var value: String
    }
    private struct Bytes: Codable, Hashable {
        var count: Int
        var sha256: String
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an argument has one key"))
        }
        switch key {
        case .word: self = .word(try container.decode(String.self, forKey: key))
        case .text: self = .text(try container.decode(String.self, forKey: key))
        case .flag: self = .flag(try container.decode(Bool.self, forKey: key))
        case .milliseconds: self = .milliseconds(try container.decode(Int64.self, forKey: key))
        case .setting:
            let setting = try container.decode(Setting.self, forKey: key)
            self = .setting(key: setting.key, value: setting.value)
        case .bytes:
            let bytes = try container.decode(Bytes.self, forKey: key)
            self = .bytes(count: bytes.count, sha256: bytes.sha256)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .word(let word): try container.encode(word, forKey: .word)
        case .text(let text): try container.encode(text, forKey: .text)
        case .flag(let flag): try container.encode(flag, forKey: .flag)
        case .milliseconds(let milliseconds): try container.encode(milliseconds, forKey: .milliseconds)
        case .setting(let key, let value): try container.encode(Setting(key: key, value: value), forKey: .setting)
        case .bytes(let count, let sha256): try container.encode(Bytes(count: count, sha256: sha256), forKey: .bytes)
        }
    }
}
