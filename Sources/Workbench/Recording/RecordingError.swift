/// Why a recording database could not be used. Its `message` is one line
/// naming the file and what to do.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that match on it: a struct with static
    /// members, so that a code added later breaks no caller's `switch`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No database at that path (and none was to be created).
        public static let missing = Code(rawValue: "missing")
        /// Another process holds the database's write lock for too long.
        public static let locked = Code(rawValue: "locked")
        /// The file is not a readable SQLite database.
        public static let corrupt = Code(rawValue: "corrupt")
        /// A SQLite database, not a chatbench recording.
        public static let foreign = Code(rawValue: "foreign")
        /// A recording written by a newer chatbench.
        public static let newerSchema = Code(rawValue: "newerSchema")
        /// No session with that name or id.
        public static let unknownSession = Code(rawValue: "unknownSession")
        /// The file or its folder cannot be written.
        public static let unwritable = Code(rawValue: "unwritable")
        /// The session cannot be replayed that way (it has no tape, or its world cannot start).
        public static let unsupported = Code(rawValue: "unsupported")
        /// A session of that name exists already.
        public static let nameTaken = Code(rawValue: "nameTaken")

        /// `catch RecordingError.Code.locked { … }`: matches a RecordingError of this code.
        public static func ~= (code: Code, error: any Error) -> Bool { (error as? RecordingError)?.code == code }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
