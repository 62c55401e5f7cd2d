/// A line the workbench could not run: the script's fault (status 2).
///
/// `code` says what kind of mistake it is, for tools (the replayer tells an
/// unknown verb from other failures; explore and shrink compare failures by
/// it), and `message` says it to the user, once, as `script error: …`
/// (swift-argument-parser's ParserError is the model).
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Kinds of mistakes: a struct with static members, so that a kind
    /// added later breaks no caller's `switch`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The line cannot be read: a quote, a parenthesis, a name, a path.
        public static let syntax = Code(rawValue: "syntax")
        /// No verb (or topic) by that name.
        public static let unknownVerb = Code(rawValue: "unknownVerb")
        /// No object (handle, client, conversation) by that name.
        public static let unknownHandle = Code(rawValue: "unknownHandle")
        /// An object has no field by that name.
        public static let unknownField = Code(rawValue: "unknownField")
        /// A verb has no option by that name.
        public static let unknownOption = Code(rawValue: "unknownOption")
        /// A verb's argument, or an option's value, is missing.
        public static let missingArgument = Code(rawValue: "missingArgument")
        /// More arguments than the verb takes.
        public static let unexpectedArgument = Code(rawValue: "unexpectedArgument")
        /// A value of the wrong form: a number, a duration, a choice, key=value.
        public static let badValue = Code(rawValue: "badValue")
        /// An index past the end of a list.
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// An object of another kind than the verb or path takes.
        public static let wrongKind = Code(rawValue: "wrongKind")
        /// Options that do not go together, or one that needs another.
        public static let conflictingOptions = Code(rawValue: "conflictingOptions")
        /// A name already given: names are never rebound.
        public static let nameTaken = Code(rawValue: "nameTaken")
        /// Virtual time or the embedded world is needed; this is a server.
        public static let needsEmbeddedWorld = Code(rawValue: "needsEmbeddedWorld")
        /// A signed-in user is needed.
        public static let needsUser = Code(rawValue: "needsUser")
        /// The server could not be reached or refused what the other side asked.
        public static let server = Code(rawValue: "server")
        /// A file could not be read or is not a script.
        public static let file = Code(rawValue: "file")
        /// The recordings could not be read.
        public static let recording = Code(rawValue: "recording")
        /// `run` inside `run`, too deep (a script that runs itself?).
        public static let tooDeep = Code(rawValue: "tooDeep")
    }

    public var code: Code
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
