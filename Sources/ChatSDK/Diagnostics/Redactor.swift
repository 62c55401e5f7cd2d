import Foundation

/// Replaces secrets with stable placeholders (`<jwt#1>`, `<secret#1>`) at
/// the point where anything is written: history, recordings, exports, logs
/// (W6). The same secret always gets the same placeholder in a session.
///
/// Four patterns, applied in this order, each to the text the one before
/// left: JWTs, values of the secret options, backend tokens, the wire's API
/// keys and signatures. Within a pattern, placeholders are numbered from
/// the last match of a line to the first (how the regular expressions
/// first used here replaced them). ASCII text, nearly everything recorded,
/// is read by a byte scanner (`Redactor+Scanner.swift`); other text by the
/// regular expressions, whose Unicode rules (`\s`, `\b`) the scanner does
/// not repeat. Both give the same text and the same numbering.
package final class Redactor {
    /// How a redactor reads text.
    package enum Engine {
        /// The byte scanner for ASCII text, the expressions for the rest.
        case scanner
        /// The regular expressions for all text (what the scanner is checked against).
        case expressions
    }

    private let engine: Engine
    private var placeholders: [String: String] = [:]
    private var counters: [String: Int] = [:]
    /// Every secret value this redactor has seen as a secret (an option's
    /// value, an API key, a signature; and a header option's value after its
    /// `=`), with its placeholder: replaced wherever it shows up after,
    /// however it was formatted (issue 30: `authorize --token T` redacted T in
    /// the step's input but left it in clear in the request body on the tape).
    private var knownValues: [(bytes: [UInt8], placeholder: String)] = []
    /// Shortest value replaced wherever it appears: shorter ones would
    /// replace ordinary text.
    static let shortestKnownValue = 4

    package init(engine: Engine = .scanner) {
        self.engine = engine
    }

    /// Names of the options the workbench's command table marks secret (W6),
    /// without their `--`, sorted. The table says which they are; the
    /// redactor lives here, below the workbench, so that the SDK's flight
    /// recorder redacts with it too, and a test checks the two agree.
    package static let secretOptions: [String] = ["api-key", "header", "secret", "signature", "token"]
    /// What help and usage write after a secret option (`[--secret S]`): a
    /// placeholder, not a value, so never redacted (checked like `secretOptions`).
    package static let valueNames: Set<String> = ["K=V", "KEY", "S", "T"]

    // Compiled once per session, when first needed: the scanner reads ASCII text.
    private lazy var expressions = Expressions()

    package func redact(_ line: String) -> String {
        let patterned = redactPatterns(line)
        guard !knownValues.isEmpty else { return patterned }
        let replaced =
            patterned.utf8.withContiguousStorageIfAvailable(replacingKnownValues)
            ?? Array(patterned.utf8).withUnsafeBufferPointer(replacingKnownValues)
        return replaced.map { String(decoding: $0, as: UTF8.self) } ?? patterned
    }

    private func redactPatterns(_ line: String) -> String {
        // Most text holds no secret: skip the patterns then. A native
        // string's bytes are read in place (its UTF8View's iterator costs
        // several times more per byte).
        let survey = line.utf8.withContiguousStorageIfAvailable(Survey.init) ?? Array(line.utf8).withUnsafeBufferPointer(Survey.init)
        guard !survey.passes.isEmpty else { return line }
        if engine == .scanner, survey.isASCII {
            return scan(Array(line.utf8), survey.passes).map { String(decoding: $0, as: UTF8.self) } ?? line
        }
        return expressions.redact(line, placeholder: placeholder(for:kind:))
    }

    /// A body of the tape (JSON, UTF-8 text) redacted like a line; one that
    /// is not UTF-8 text is replaced by what it is, rather than kept in clear.
    package func redact(body: Data) -> Data {
        let survey = body.withUnsafeBytes { Survey($0.assumingMemoryBound(to: UInt8.self)) }
        if engine == .scanner, survey.isASCII {
            let patterned = survey.passes.isEmpty ? body : scan(Array(body), survey.passes).map { Data($0) } ?? body
            guard !knownValues.isEmpty else { return patterned }
            return patterned.withUnsafeBytes { replacingKnownValues($0.assumingMemoryBound(to: UInt8.self)) }.map { Data($0) } ?? patterned
        }
        return String(data: body, encoding: .utf8).map { Data(redact($0).utf8) } ?? Self.notText(body)
    }

    /// `bytes` with every known secret value replaced by its placeholder, or
    /// nil when none occurs (the common case: nothing is copied then).
    private func replacingKnownValues(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard knownValues.contains(where: { bytes.firstOccurrence(of: $0.bytes) != nil }) else { return nil }
        var result = Array(bytes)
        for known in knownValues {
            guard Self.firstOccurrence(of: known.bytes, in: result) != nil else { continue }
            var output: [UInt8] = []
            output.reserveCapacity(result.count)
            var rest = result[...]
            while let at = Self.firstOccurrence(of: known.bytes, in: rest) {
                output.append(contentsOf: rest[..<at])
                output.append(contentsOf: known.placeholder.utf8)
                rest = rest[(at + known.bytes.count)...]
            }
            output.append(contentsOf: rest)
            result = output
        }
        return result
    }

    /// Where `needle` first starts in `haystack`, byte for byte.
    private static func firstOccurrence<Bytes: Collection<UInt8>>(of needle: [UInt8], in haystack: Bytes) -> Bytes.Index? {
        guard let first = needle.first else { return nil }
        var from = haystack.startIndex
        while let at = haystack[from...].firstIndex(of: first) {
            if haystack[at...].starts(with: needle) { return at }
            from = haystack.index(after: at)
        }
        return nil
    }

    private static func notText(_ body: Data) -> Data {
        Data("<not text: \(body.count) bytes>".utf8)
    }

    /// Puts back the secrets behind the placeholders this redactor handed
    /// out, so that a replay can feed a recorded (redacted) line once its
    /// own world has produced the secret again. Unknown placeholders stay.
    package func reveal(_ text: String) -> String {
        guard text.containsASCII("#"), text.containsASCII("<") else { return text }
        var result = text
        for (secret, placeholder) in placeholders where result.contains(placeholder) {
            result = result.replacingOccurrences(of: placeholder, with: secret)
        }
        return result
    }

    package func placeholder(for secret: String, kind: String) -> String {
        if let existing = placeholders[secret] { return existing }
        let n = (counters[kind] ?? 0) + 1
        counters[kind] = n
        let placeholder = "<\(kind)#\(n)>"
        placeholders[secret] = placeholder
        if kind == "secret" { remember(secret, as: placeholder) }
        return placeholder
    }

    /// Keeps a secret value (and, for `NAME=VALUE`, the value alone, which a
    /// header field carries) to be replaced wherever it shows up.
    private func remember(_ secret: String, as placeholder: String) {
        var values = [secret]
        if let equals = secret.firstIndex(of: "=") { values.append(String(secret[secret.index(after: equals)...])) }
        for value in values where value.utf8.count >= Self.shortestKnownValue {
            knownValues.append((Array(value.utf8), placeholder))
        }
        // The longest first, so that a value inside another is not replaced
        // in it first.
        knownValues.sort { $0.bytes.count > $1.bytes.count }
    }
}

extension Redactor {
    /// The patterns as regular expressions (ICU's, through Foundation).
    struct Expressions {
        // JWTs: three base64url parts, the first two starting with eyJ.
        let jwt = try! NSRegularExpression(pattern: "eyJ[A-Za-z0-9_-]*\\.eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]*")
        // Values of the secret options.
        let option: NSRegularExpression = {
            let alternatives = Redactor.secretOptions.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
            return try! NSRegularExpression(pattern: "(--(?:\(alternatives)))(\\s+|=)(\"[^\"]*\"|'[^']*'|\\S+)")
        }()
        // Tokens the backend mints: at-…, rt-…, st-…, ak-… (and the same with `_`).
        let token = try! NSRegularExpression(pattern: "\\b(?:at|rt|st|ak)[-_][A-Za-z0-9]{8,}\\b")
        // The app's API key and user signatures (A12) in the wire's JSON (the
        // tape's requests and event stream openings): `"apiKey":"demo-key"`,
        // `"signature":"9f86d0…"`.
        let apiKey = try! NSRegularExpression(pattern: "\"(?:apiKey|signature)\":\"([^\"\\\\]*)\"")

        func redact(_ line: String, placeholder: (String, String) -> String) -> String {
            var result = line
            result = replace(jwt, in: result, kind: "jwt", placeholder: placeholder)
            let matches = option.matches(in: result, range: NSRange(result.startIndex..., in: result)).reversed()
            for match in matches {
                guard let range = Range(match.range(at: 3), in: result) else { continue }
                let value = String(result[range])
                guard !value.hasPrefix("<"),
                    !Redactor.valueNames.contains(value.trimmingCharacters(in: CharacterSet(charactersIn: "])")))
                else {
                    continue
                }
                result.replaceSubrange(
                    range, with: placeholder(value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")), "secret"))
            }
            result = replace(token, in: result, kind: "token", placeholder: placeholder)
            for match in apiKey.matches(in: result, range: NSRange(result.startIndex..., in: result)).reversed() {
                guard let range = Range(match.range(at: 1), in: result), !result[range].hasPrefix("<") else { continue }
                result.replaceSubrange(range, with: placeholder(String(result[range]), "secret"))
            }
            return result
        }

        private func replace(
            _ pattern: NSRegularExpression, in text: String, kind: String, placeholder: (String, String) -> String
        ) -> String {
            var result = text
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
                guard let range = Range(match.range, in: result) else { continue }
                result.replaceSubrange(range, with: placeholder(String(result[range]), kind))
            }
            return result
        }
    }
}
