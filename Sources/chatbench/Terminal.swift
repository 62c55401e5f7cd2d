import Foundation
import Workbench

/// Writing to the standard streams, in one place.
enum Terminal {
    /// Writes `text` to standard output exactly as given (no newline added).
    static func write(_ text: String) {
        print(text, terminator: "")
    }

    /// Writes a step's output (painted at a terminal) and flushes it, so
    /// that a run killed halfway leaves every finished step's output
    /// behind, even in a pipe or file.
    static func writeStep(_ text: StyledText) {
        write(Colour.paint(text))
        fflush(nil)
    }

    /// Writes one line to standard error.
    static func error(_ line: String) {
        writeError(line + "\n")
    }

    /// Writes `text` to standard error exactly as given (no newline added).
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Flushes buffered standard output, e.g. before the line editor draws.
    static func flush() {
        fflush(nil)
    }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Standard output's width in columns when it is a terminal.
    static var width: Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Standard output's height in rows when it is a terminal.
    static var height: Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}
