import ChatCore
import ChatSDK

/// The one way the workbench writes values for people: strings quoted and
/// escaped, sizes in kB/MB, durations in their shortest spelling (`189ms`,
/// `2h34m0.947s`, `60d 1h30m`), counts with the noun's right number.
package enum Format {
    /// `"text"`, with `\`, `"`, newlines and tabs escaped, and other control
    /// characters as `\u001b`: also a JSON string.
    package static func quoted(_ text: String) -> String {
        // Most strings need no escape: skip the scalar loop then.
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\"" || $0.value < 0x20 }) else {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` with its control characters (below U+0020 but newline and tab, DEL, U+0080–U+009F)
    /// written as `\u001b`; text without any, the common case, as it is.
    package static func escapingControls(_ text: String) -> String {
        guard text.utf8.withContiguousStorageIfAvailable(holdsControls) ?? holdsControls(Array(text.utf8)) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value) {
                let hex = String(value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether UTF-8 `bytes` hold a character `escapingControls` escapes:
    /// a control below U+0020 but newline and tab, DEL, or one of U+0080–U+009F
    /// (written C2 80–C2 9F). A line with `·` (C2 B7) holds none: every
    /// watcher's line has one, and each used to be copied scalar by scalar.
    private static func holdsControls(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
        }
        return false
    }

    private static func holdsControls(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(holdsControls) }

    /// `1 step`, `2 steps`; `plural` for nouns that do not just take an s.
    package static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// `0s`, `189ms`, `1.5s`, `1m30s`, `2h34m0.947s`, `60d 1h30m`: days,
    /// hours and minutes as whole units, seconds with their milliseconds.
    package static func duration(milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return "0s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        let days = milliseconds / 86_400_000
        let hours = milliseconds / 3_600_000 % 24
        let minutes = milliseconds / 60_000 % 60
        let ms = milliseconds % 60_000
        var rest = ""
        if hours > 0 { rest += "\(hours)h" }
        if minutes > 0 { rest += "\(minutes)m" }
        if ms > 0 {
            var seconds = String(ms / 1000)
            if ms % 1000 > 0 {
                var fraction = String(ms % 1000)
                fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                seconds += "." + fraction
            }
            rest += seconds + "s"
        }
        guard days > 0 else { return rest }
        return rest.isEmpty ? "\(days)d" : "\(days)d \(rest)"
    }

    package static func duration(_ duration: Duration) -> String {
        self.duration(milliseconds: duration.wholeMilliseconds)
    }

    /// Wall-clock time, which is not a whole number of milliseconds:
    /// `0.4ms`, `1.2ms`, `2.35s`.
    package static func wall(seconds: Double) -> String {
        if seconds < 1 { return formatted(seconds * 1000, decimals: seconds < 0.1 ? 1 : 0) + "ms" }
        return formatted(seconds, decimals: 2) + "s"
    }

    /// `512 B`, `1.5 kB`, `2.0 MB`, `1.2 GB` (powers of 1000).
    package static func bytes(_ count: Int64) -> String {
        if count < 1000 { return "\(count) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(count) / 1000
        var unit = 0
        while value >= 999.95, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return formatted(value, decimals: 1) + " " + units[unit]
    }

    /// A message's content: its text quoted, or an attachment as
    /// `image/jpeg 2.0 MB` (with its file name, quoted, when it has one).
    package static func content(_ content: MessageContent) -> String {
        switch content {
        case .text(let text): quoted(text)
        case .attachment(_, let mime, let size, let fileName):
            "\(mime) \(bytes(size))" + (fileName.map { " " + quoted($0) } ?? "")
        }
    }

    /// An attachment as `m1.attachment` shows it: its name, type, size in
    /// bytes and, once the session held its bytes, the first 12 hex digits
    /// of their SHA-256: `dot.png, image/png, 69 bytes, sha256:2e9b06dc65a4`.
    package static func attachment(_ content: MessageContent, digest: String?) -> String {
        guard case .attachment(_, let mime, let size, let fileName) = content else { return Self.content(content) }
        var parts = fileName.map { [$0] } ?? []
        parts += [mime, "\(size) bytes"]
        if let digest { parts.append(shortDigest(digest)) }
        return parts.joined(separator: ", ")
    }

    /// What `fetch M` says of the bytes `data(for:)` gave: `69 bytes
    /// image/png sha256:2e9b06dc65a4`, and `(cached)` when no request was made.
    package static func attachmentData(_ fetched: AttachmentData, digest: String) -> String {
        let line = "\(fetched.data.count) bytes \(fetched.mimeType) \(shortDigest(digest))"
        return fetched.source == .cache ? line + " (cached)" : line
    }

    /// `sha256:` and the first 12 hex digits of a digest.
    package static func shortDigest(_ digest: String) -> String {
        "sha256:" + digest.prefix(12)
    }

    private static func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let whole = Int64(rounded)
        guard decimals > 0 else { return String(whole) }
        var fraction = String(Int64(((rounded - Double(whole)) * scale).rounded()))
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        return "\(whole).\(fraction)"
    }
}
