import Foundation

/// What the flight recorder keeps of a message's text with
/// `content: .redacted`: its kind, its length and a digest, so that a trace
/// tells messages apart without holding what they say (a health app's
/// patients' words).
package enum ContentRedaction {
    /// The JSON keys whose string values are a message's content: its
    /// text, an attachment's file name, a conversation's last message's
    /// preview.
    static let contentKeys: Set<String> = ["text", "fileName", "lastMessagePreview"]

    /// `<text 12 chars sha256:1f2e3d4c5b6a7980>`: the first 8 bytes of the
    /// text's SHA-256. A digest of a short text can be found by trying
    /// texts: it tells two messages apart, it is not encryption.
    package static func summary(of text: String) -> String {
        let digest = SHA256.hash(text.utf8).prefix(8).map { String(format: "%02x", $0) }.joined()
        return "<text \(text.count) chars sha256:\(digest)>"
    }

    /// `json` with every string under a content key replaced by its
    /// summary; a body that is not JSON is replaced by its length alone.
    static func redact(json: Data) -> Data {
        guard let value = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else {
            return Data("<not JSON: \(json.count) bytes>".utf8)
        }
        let redacted = redact(value, underContentKey: false)
        return (try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]))
            ?? Data("<not JSON: \(json.count) bytes>".utf8)
    }

    private static func redact(_ value: Any, underContentKey: Bool) -> Any {
        switch value {
        case let text as String:
            return underContentKey ? summary(of: text) : text
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, inner) in object {
                result[key] = redact(inner, underContentKey: underContentKey || contentKeys.contains(key))
            }
            return result
        case let array as [Any]:
            return array.map { redact($0, underContentKey: underContentKey) }
        default:
            return value
        }
    }
}
