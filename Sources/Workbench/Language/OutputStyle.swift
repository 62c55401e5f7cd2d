/// What a part of the output is, said by the code that prints it: an edge
/// that shows kinds apart (a terminal's colours) goes by this, never by
/// reading the text back (issue 30). The text is the same whatever its style:
/// transcripts, recordings and pipes take the text alone.
package enum OutputStyle: String, Sendable, Hashable, Codable {
    /// Something went wrong: `error:`, `script error:`, `expect failed:`,
    /// a test report's `FAIL` and `ERROR` lines.
    case failure
    /// Something held: `ok:` from `expect`.
    case success
    /// A time stamp or a timing: an event's `[00:00:00.071]`, `virtual 44ms, wall 1.2ms`.
    case time
    /// A diff's expected line that is missing (`- …`).
    case removed
    /// A diff's actual line that was not expected (`+ …`).
    case added
}
