import Foundation

/// Replaces secrets with stable placeholders (`<jwt#1>`, `<secret#1>`) at
/// the point where anything is written: history, recordings, exports, logs
/// (W6). The same secret always gets the same placeholder in a session.
final class Redactor {
    private var placeholders: [String: String] = [:]
    private var counters: [String: Int] = [:]

    // Compiled once per session: redaction runs on every recorded step.
    // JWTs: three base64url parts, the first two starting with eyJ.
    private let jwt = try! NSRegularExpression(pattern: "eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]*")
    // Values of the options the command table marks secret (W6): the table
    // is the one place that says which they are.
    private let option: NSRegularExpression = {
        let names = Set(CommandTable.standard.specs.flatMap(\.options).filter(\.secret).map { String($0.name.dropFirst(2)) })
        let alternatives = names.sorted().map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        return try! NSRegularExpression(pattern: "(--(?:\(alternatives)))(\\s+|=)(\"[^\"]*\"|'[^']*'|\\S+)")
    }()
    // What help and usage write after a secret option (`[--secret S]`): a
    // placeholder, not a value, so never redacted.
    private let valueNames = Set(CommandTable.standard.specs.flatMap(\.options).filter(\.secret).map(\.valueName))
    // Tokens the backend mints: at-…, rt-…, st-…, ak-… (and the same with `_`).
    private let token = try! NSRegularExpression(pattern: "\\b(?:at|rt|st|ak)[-_][A-Za-z0-9]{8,}\\b")
    // The app's API key and user signatures (A12) in the wire's JSON (the
    // tape's requests and event stream openings): `"apiKey":"demo-key"`,
    // `"signature":"9f86d0…"`.
    private let apiKey = try! NSRegularExpression(pattern: "\"(?:apiKey|signature)\":\"([^\"\\\\]*)\"")

    func redact(_ line: String) -> String {
        // Most text holds no secret: skip the regular expressions then.
        guard Self.mayHoldSecret(line) else { return line }
        var result = line
        result = replace(jwt, in: result, kind: "jwt")
        let matches = option.matches(in: result, range: NSRange(result.startIndex..., in: result)).reversed()
        for match in matches {
            guard let range = Range(match.range(at: 3), in: result) else { continue }
            let value = String(result[range])
            guard !value.hasPrefix("<"), !valueNames.contains(value.trimmingCharacters(in: CharacterSet(charactersIn: "])"))) else {
                continue
            }
            result.replaceSubrange(
                range, with: placeholder(for: value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")), kind: "secret"))
        }
        result = replace(token, in: result, kind: "token")
        for match in apiKey.matches(in: result, range: NSRange(result.startIndex..., in: result)).reversed() {
            guard let range = Range(match.range(at: 1), in: result), !result[range].hasPrefix("<") else { continue }
            result.replaceSubrange(range, with: placeholder(for: String(result[range]), kind: "secret"))
        }
        return result
    }

    /// Whether `line` has `eyJ`, `--`, `t-`, `k-`, `_`, `y"` or `re"`, without which
    /// no pattern below can match (a byte scan: Foundation's `contains` is slow).
    private static func mayHoldSecret(_ line: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in line.utf8 {
            if byte == UInt8(ascii: "_") { return true }
            if byte == UInt8(ascii: "-"),
                previous == UInt8(ascii: "-") || previous == UInt8(ascii: "t") || previous == UInt8(ascii: "k")
            {
                return true
            }
            if byte == UInt8(ascii: "J"), previous == UInt8(ascii: "y"), beforePrevious == UInt8(ascii: "e") { return true }
            if byte == UInt8(ascii: "\""), previous == UInt8(ascii: "y"), beforePrevious == UInt8(ascii: "e") { return true }
            if byte == UInt8(ascii: "\""), previous == UInt8(ascii: "e"), beforePrevious == UInt8(ascii: "r") { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// Puts back the secrets behind the placeholders this redactor handed
    /// out, so that a replay can feed a recorded (redacted) line once its
    /// own world has produced the secret again. Unknown placeholders stay.
    func reveal(_ text: String) -> String {
        guard text.contains("#"), text.contains("<") else { return text }
        var result = text
        for (secret, placeholder) in placeholders where result.contains(placeholder) {
            result = result.replacingOccurrences(of: placeholder, with: secret)
        }
        return result
    }

    private func replace(_ pattern: NSRegularExpression, in text: String, kind: String) -> String {
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: result) else { continue }
            result.replaceSubrange(range, with: placeholder(for: String(result[range]), kind: kind))
        }
        return result
    }

    private func placeholder(for secret: String, kind: String) -> String {
        if let existing = placeholders[secret] { return existing }
        let n = (counters[kind] ?? 0) + 1
        counters[kind] = n
        let placeholder = "<\(kind)#\(n)>"
        placeholders[secret] = placeholder
        return placeholder
    }
}
