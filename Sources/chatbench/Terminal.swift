import Foundation

/// Writing to the standard streams, in one place.
enum Terminal {
    /// Writes `text` to standard output exactly as given (no newline added).
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Flushes buffered standard output, e.g. before the line editor draws.
    static func flush() {
        fflush(nil)
    }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}
