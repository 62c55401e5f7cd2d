/// Why a recording database could not be used. Its `message` is one line
/// naming the file and what to do.
package struct RecordingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that match on it: a struct with static
    /// members, so that a code added later breaks no caller's `switch`.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// No database at that path (and none was to be created).
        package static let missing = Code(rawValue: "missing")
        /// Another process holds the database's write lock for too long.
        package static let locked = Code(rawValue: "locked")
        /// The file is not a readable SQLite database.
        package static let corrupt = Code(rawValue: "corrupt")
        /// A SQLite database, not a chatbench recording.
        package static let foreign = Code(rawValue: "foreign")
        /// A recording written by a newer chatbench.
        package static let newerSchema = Code(rawValue: "newerSchema")
        /// No session with that name or id.
        package static let unknownSession = Code(rawValue: "unknownSession")
        /// The file or its folder cannot be written.
        package static let unwritable = Code(rawValue: "unwritable")
        /// The session cannot be replayed that way (it has no tape, or its world cannot start).
        package static let unsupported = Code(rawValue: "unsupported")
        /// A session of that name exists already.
        package static let nameTaken = Code(rawValue: "nameTaken")

        /// `catch RecordingError.Code.locked { … }`: matches a RecordingError of this code.
        package static func ~= (code: Code, error: any Error) -> Bool { (error as? RecordingError)?.code == code }
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
