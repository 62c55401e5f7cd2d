import Foundation
import Workbench

/// Colour on a terminal, by what each part of the output is, as the code
/// that printed it said (``OutputStyle``): failures in red, `ok:` in green,
/// a diff's lines in red and green, times dimmed. Never by reading the text
/// (issue 30): a message whose text starts with `error:` stays plain. None
/// when standard output is not a terminal or `NO_COLOR` is set
/// (https://no-color.org). Every escape code the tool writes is chosen here.
enum Colour {
    /// Decided once: two system calls at start-up.
    static let enabled: Bool = isatty(STDOUT_FILENO) == 1 && allowed(noColor: getenv("NO_COLOR").map { String(cString: $0) })

    /// `NO_COLOR` set to anything but the empty string turns colour off.
    static func allowed(noColor: String?) -> Bool { noColor?.isEmpty ?? true }

    private static let reset = Array("\u{1B}[0m".utf8)

    /// The escape code that starts `style`.
    private static func code(_ style: OutputStyle) -> [UInt8] {
        switch style {
        case .failure, .removed: Array("\u{1B}[31m".utf8)
        case .success, .added: Array("\u{1B}[32m".utf8)
        case .time, .eventTime, .duration, .wakeUps: Array("\u{1B}[2m".utf8)
        // Never printed: only a recording keeps these parts.
        case .minted: []
        }
    }

    /// `text` painted when colour is enabled; its text alone otherwise.
    static func paint(_ text: StyledText) -> String {
        enabled ? paint(text, force: true) : text.text
    }

    /// Paints whatever the terminal: for tests. Each styled part is painted
    /// line by line, so that a pager showing some of its lines shows them
    /// painted and the rest of the screen is not.
    static func paint(_ text: StyledText, force: Bool) -> String {
        guard force, !text.spans.isEmpty else { return text.text }
        let bytes = Array(text.text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + text.spans.count * 9)
        var at = 0
        for span in text.spans {
            out += bytes[at..<span.range.lowerBound]
            let code = code(span.style)
            var start = span.range.lowerBound
            while start < span.range.upperBound {
                let end = bytes[start..<span.range.upperBound].firstIndex(of: 0x0A) ?? span.range.upperBound
                if end > start { out += code + bytes[start..<end] + reset }
                if end < span.range.upperBound { out.append(0x0A) }
                start = end + 1
            }
            at = span.range.upperBound
        }
        out += bytes[at...]
        return String(decoding: out, as: UTF8.self)
    }
}
