/// A `.chat` file that cannot be run: one line naming the file, the line
/// and what to write instead.
public struct TranscriptError: Error, Sendable, CustomStringConvertible {
    public var path: String
    /// 1-based line number, nil for the whole file.
    public var line: Int?
    public var reason: String

    public init(path: String, line: Int? = nil, _ reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var message: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
    public var description: String { message }
}
