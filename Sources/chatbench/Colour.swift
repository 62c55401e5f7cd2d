import Foundation

/// Colour on a terminal: errors and failed expects in red, `ok:` in green,
/// diff lines in red and green, event times dimmed. None when standard
/// output is not a terminal or `NO_COLOR` is set (https://no-color.org).
enum Colour {
    /// Decided once: two system calls at start-up.
    static let enabled: Bool = isatty(STDOUT_FILENO) == 1 && allowed(noColor: getenv("NO_COLOR").map { String(cString: $0) })

    /// `NO_COLOR` set to anything but the empty string turns colour off.
    static func allowed(noColor: String?) -> Bool { noColor?.isEmpty ?? true }

    private static let red = "\u{1B}[31m", green = "\u{1B}[32m", dim = "\u{1B}[2m", reset = "\u{1B}[0m"

    /// `text` (whole lines) painted when colour is enabled.
    static func paint(_ text: String) -> String {
        enabled ? paint(text, force: true) : text
    }

    /// Paints whatever the terminal: for tests.
    static func paint(_ text: String, force: Bool) -> String {
        guard force, !text.isEmpty else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices { lines[index] = paintLine(lines[index]) }
        return lines.joined(separator: "\n")
    }

    static func paintLine(_ line: String) -> String {
        if line.hasPrefix("error:") || line.hasPrefix("script error:") || line.hasPrefix("expect failed:") || line.hasPrefix("FAIL ")
            || line.hasPrefix("ERROR ")
        {
            return red + line + reset
        }
        if line.hasPrefix("ok:") { return green + line + reset }
        let trimmed = line.drop { $0 == " " }
        let indent = line.count - trimmed.count
        if indent >= 2, trimmed.hasPrefix("- ") { return red + line + reset }
        if indent >= 2, trimmed.hasPrefix("+ ") { return green + line + reset }
        if indent == 2, trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            let stamp = trimmed[...close]
            return "  " + dim + stamp + reset + trimmed[trimmed.index(after: close)...]
        }
        return line
    }
}
