/// A line the workbench could not run: the script's fault (status 2).
///
/// `code` says what kind of mistake it is, for tools (the replayer tells an
/// unknown verb from other failures; explore and shrink compare failures by
/// it), and `message` says it to the user, once, as `script error: …`
/// (swift-argument-parser's ParserError is the model).
package struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Kinds of mistakes: a struct with static members, so that a kind
    /// added later breaks no caller's `switch`.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The line cannot be read: a quote, a parenthesis, a name, a path.
        package static let syntax = Code(rawValue: "syntax")
        /// No verb (or topic) by that name.
        package static let unknownVerb = Code(rawValue: "unknownVerb")
        /// No object (handle, client, conversation) by that name.
        package static let unknownHandle = Code(rawValue: "unknownHandle")
        /// An object has no field by that name.
        package static let unknownField = Code(rawValue: "unknownField")
        /// A verb has no option by that name.
        package static let unknownOption = Code(rawValue: "unknownOption")
        /// A verb's argument, or an option's value, is missing.
        package static let missingArgument = Code(rawValue: "missingArgument")
        /// More arguments than the verb takes.
        package static let unexpectedArgument = Code(rawValue: "unexpectedArgument")
        /// A value of the wrong form: a number, a duration, a choice, key=value.
        package static let badValue = Code(rawValue: "badValue")
        /// An index past the end of a list.
        package static let outOfRange = Code(rawValue: "outOfRange")
        /// An object of another kind than the verb or path takes.
        package static let wrongKind = Code(rawValue: "wrongKind")
        /// Options that do not go together, or one that needs another.
        package static let conflictingOptions = Code(rawValue: "conflictingOptions")
        /// A handle that could mean more than one thing here (a client's
        /// conversation while another client is current).
        package static let ambiguous = Code(rawValue: "ambiguous")
        /// A name already given: names are never rebound.
        package static let nameTaken = Code(rawValue: "nameTaken")
        /// Virtual time or the embedded world is needed; this is a server.
        package static let needsEmbeddedWorld = Code(rawValue: "needsEmbeddedWorld")
        /// A signed-in user is needed.
        package static let needsUser = Code(rawValue: "needsUser")
        /// The server could not be reached or refused what the other side asked.
        package static let server = Code(rawValue: "server")
        /// A file could not be read or is not a script.
        package static let file = Code(rawValue: "file")
        /// The recordings could not be read.
        package static let recording = Code(rawValue: "recording")
        /// `run` inside `run`, too deep (a script that runs itself?).
        package static let tooDeep = Code(rawValue: "tooDeep")
    }

    package var code: Code
    package var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
