import ChatCore
import ChatSDK
import ChatSimulation

// LEGACY: the one place that reads an event's text back. Rows written
// before schema v9 have no `event.kind` (and the workbench's own have no
// `event.value`), and those of v9 builds before a request's answer was
// typed have a kind this build does not read (`"answer":"ok"`): they are
// typed from their source and text here, and only here, by the rules the
// timeline and the sequence view used to apply to the text. Nothing else
// parses an event's text; no row with a kind this build reads is read by
// it.

extension RecordedEvent.Kind {
    /// LEGACY: the kind of an event written before v9, from its source
    /// (`alice.session`, `net:`, `provider:`, `m1:`, `w1`) and its text
    /// (`net: sendMessage → ok`, `w1 emits (fresh, refreshed) …`).
    package init(legacySource source: String, text: String) {
        if let client = Self.legacyClient(ofSource: source) {
            self = .state(client: client, change: String(text.dropFirst(client.count + 1)))
        } else if source == "net:", let arrow = text.range(of: " → ") {
            // The request's name has no arrow: the answer is all after the first.
            self = .request(
                name: String(text[..<arrow.lowerBound].dropFirst("net: ".count)),
                answer: RequestAnswer(legacyText: String(text[arrow.upperBound...])))
        } else if source == "provider:" {
            self = .provider
        } else if source == "call" {
            // A field recording's (`call: sendMessage returned m-1 toBeSent`).
            self = .call
        } else if source.hasSuffix(":"), source.first == "m" {
            self = .message(handle: String(source.dropLast()))
        } else if source.first == "w", source.dropFirst().allSatisfy(\.isNumber) || text.contains(" emits ") {
            if text.hasPrefix("\(source) emits (") {
                self = .emission(watcher: source, fresh: text.hasPrefix("\(source) emits (fresh"))
            } else if text.hasPrefix("\(source) ended: ") {
                self = .watcherEnded(watcher: source)
            } else {
                // A field recording's (`w1: 1 item (m-1 sent), fresh, refreshed`).
                self = .emission(watcher: source, fresh: text.contains("(fresh"))
            }
        } else {
            self = .other
        }
    }

    /// `alice` of `alice.session` and `alice.connection`.
    private static func legacyClient(ofSource source: String) -> String? {
        for suffix in [".session", ".connection"] where source.hasSuffix(suffix) {
            return String(source.dropLast(suffix.count))
        }
        return nil
    }
}

extension RequestAnswer {
    /// LEGACY: a request's answer from what a build before typed answers
    /// wrote after `net: NAME → ` (``text`` of the answer read): `ok`,
    /// `failed`, `answer lost (CAUSE)`, a transport's kind with or without
    /// its `(CAUSE)`, else a refusal's code. Whatever the text, the answer
    /// read shows it again as it was written; only `ok` is answered, as the
    /// sequence view used to decide.
    init(legacyText text: String) {
        let lost = "answer lost ("
        if text == "ok" {
            self = .ok
        } else if text == "failed" {
            self = .unknownFailure
        } else if text.hasPrefix(lost), text.hasSuffix(")") {
            self = .answerLost(cause: String(text.dropFirst(lost.count).dropLast()))
        } else if let kind = Self.legacyKinds.first(where: { text == $0.rawValue }) {
            self = .failed(kind: kind, cause: nil)
        } else if let kind = Self.legacyKinds.first(where: { text.hasPrefix($0.rawValue + " (") && text.hasSuffix(")") }) {
            self = .failed(kind: kind, cause: String(text.dropFirst(kind.rawValue.count + 2).dropLast()))
        } else {
            self = .refused(code: WireError.Code(rawValue: text))
        }
    }

    /// The transport's kinds a trace named (`failed` alone is read as an
    /// unknown failure: both were written `failed`).
    private static let legacyKinds: [TransportError.Kind] = [.offline, .refused, .reset, .timeout, .unavailable, .rateLimited]
}
