/// Why a recording database could not be used. Its `message` is one line
/// naming the file and what to do.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that match on it.
    public enum Code: String, Sendable {
        case missing, locked, corrupt, foreign, newerSchema, unknownSession, unwritable, unsupported, nameTaken
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
