/// A `.chat` file that cannot be run: one line naming the file, the line
/// and what to write instead.
package struct TranscriptError: Error, Sendable, CustomStringConvertible {
    package var path: String
    /// 1-based line number, nil for the whole file.
    package var line: Int?
    package var reason: String

    package init(path: String, line: Int? = nil, _ reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var message: String { line.map { "\(path):\($0): \(reason)" } ?? "\(path): \(reason)" }
    package var description: String { message }
}
