/// The groups `help` lists verbs in, in this order.
enum CommandGroup: String, CaseIterable, Sendable {
    case client, identity, credentials, data
    case otherSide = "other side"
    case world, flow, recording, meta
}

/// What a positional argument or an option value must be.
enum ArgumentKind: Hashable, Sendable {
    /// Any word or quoted string.
    case text
    /// A handle of this kind (or the id of such an object).
    case handle(HandleKind)
    /// One of these words.
    case choice([String])
    /// `500ms`, `30s`, `10m`, `2h`.
    case duration
    /// A whole number ≥ 0.
    case count
    /// A file path.
    case file
    /// A verb of the command table, word by word (`help clock advance`).
    case verb
}

/// The kinds of objects handles name.
enum HandleKind: String, Hashable, Sendable {
    case watcher, conversation, message, client, any

    /// What automatic handles of this kind start with: `w1`, `c1`, `m1`.
    var handlePrefix: String {
        switch self {
        case .watcher: "w"
        case .conversation: "c"
        case .message: "m"
        case .client, .any: "client"
        }
    }
}

struct ArgumentSpec: Hashable, Sendable {
    var name: String
    var kind: ArgumentKind
    var optional = false
    /// Takes every remaining word.
    var variadic = false
    /// Its value is a secret (an API key): never written in clear (W6).
    var secret = false
}

struct OptionSpec: Hashable, Sendable {
    /// With the dashes: `--title`.
    var name: String
    /// nil for a flag.
    var value: ArgumentKind?
    var valueName = "VALUE"
    var summary: String
    /// Its value is a secret: never shown or written in clear (W6).
    var secret = false
}

/// One verb: everything dispatch, help and completion need (W3).
struct CommandSpec: Sendable {
    /// One or more words: `watch`, `user set`, `clock advance`.
    var name: String
    /// Other single words that mean the same verb (`q`, `exit` for `quit`).
    var aliases: [String] = []
    var group: CommandGroup
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var summary: String
    var example: String
    /// Whether the line is kept out of history entirely.
    var sensitive = false
    /// Leaves `error` as it was (inspections, `expect`, `help`).
    var keepsError = false
    /// The kind of object the verb makes, which `NAME = VERB …` names;
    /// nil when it makes none (a name is then refused).
    var makes: HandleKind?
    /// The handler: the parsed line, and what it may do (``CommandContext``),
    /// never the interpreter. It says how the command ended as a value.
    var run: @Sendable (CommandContext, Invocation) throws -> CommandOutcome

    var words: [String] { name.split(separator: " ").map(String.init) }

    /// `send C KIND [CONTENT] [--reply-to M]`
    var usage: String {
        var parts = [name]
        for argument in arguments {
            var text: String
            if case .choice(let choices) = argument.kind { text = choices.joined(separator: "|") } else { text = argument.name }
            if argument.variadic { text += "..." }
            parts.append(argument.optional ? "[\(text)]" : text)
        }
        for option in options {
            parts.append(option.value == nil ? "[\(option.name)]" : "[\(option.name) \(option.valueName)]")
        }
        return parts.joined(separator: " ")
    }
}

/// A word's value as the table parsed it by its ``ArgumentKind``: a
/// handler reads a duration or a count, never parses the word again.
enum ArgumentValue: Hashable, Sendable {
    /// Text, a file, a verb's word, a choice, a handle (resolved by the
    /// handler through its context: a conversation id makes an object).
    case word(String)
    case duration(Duration)
    case count(Int)
}

/// How a command ended, which the step's status follows: a value the
/// handler returns, not an error it throws.
enum CommandOutcome: Hashable, Sendable {
    /// It did what it does (an `expect` that held too).
    case done
    /// A check failed: an `expect` that did not hold, a `wait` that gave
    /// up, a replay that diverged. A script exits 1.
    case expectFailed
    /// `quit`: the session ends.
    case quit
}

/// A parsed use of a verb: its words as typed, and their values as parsed.
struct Invocation: Sendable {
    var spec: CommandSpec
    var arguments: [Token]
    var options: [String: [String]]
    /// The arguments' values, in order (as many as ``arguments``).
    var argumentValues: [ArgumentValue] = []
    /// The options' values, each occurrence's, by option name.
    var optionValues: [String: [ArgumentValue]] = [:]
    /// `name = VERB …` binds the result to `name`.
    var binding: String?
    var line: String

    func argument(_ index: Int) -> String? {
        index < arguments.count ? arguments[index].text : nil
    }

    func option(_ name: String) -> String? { options[name]?.last }

    func values(_ name: String) -> [String] { options[name] ?? [] }

    func flag(_ name: String) -> Bool { options[name] != nil }

    /// The duration argument at `index`, as the table parsed it.
    func duration(_ index: Int) -> Duration? { index < argumentValues.count ? argumentValues[index].duration : nil }

    /// The duration option's last value, as the table parsed it.
    func duration(_ name: String) -> Duration? { optionValues[name]?.last?.duration }

    /// The count argument at `index`, as the table parsed it.
    func count(_ index: Int) -> Int? { index < argumentValues.count ? argumentValues[index].count : nil }

    /// The count option's last value, as the table parsed it.
    func count(_ name: String) -> Int? { optionValues[name]?.last?.count }

    /// The choice argument at `index` as the type whose raw values the table's choices are.
    func choice<Choice: RawRepresentable>(_ index: Int, as type: Choice.Type) -> Choice? where Choice.RawValue == String {
        argument(index).flatMap(Choice.init(rawValue:))
    }

    /// The choice option's last value as the type whose raw values the table's choices are.
    func choice<Choice: RawRepresentable>(_ name: String, as type: Choice.Type) -> Choice? where Choice.RawValue == String {
        option(name).flatMap(Choice.init(rawValue:))
    }
}

extension ArgumentValue {
    var duration: Duration? {
        if case .duration(let value) = self { value } else { nil }
    }

    var count: Int? {
        if case .count(let value) = self { value } else { nil }
    }
}
