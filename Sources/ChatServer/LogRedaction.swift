/// Takes what looks like a credential out of a text bound for the log
/// (issue 26: logs name the request and the error, never a credential): a
/// bearer value, a token the backend minted (`at-…`, `rt-…`, `ak-…`,
/// `st-…`), a JWT, and the value of a credential header field. Used on the
/// error path only, so the patterns are compiled there.
enum LogRedaction {
    static func redact(_ text: String) -> String {
        var text = text
        // A credential header field: keep its name, drop its value.
        if let field = try? Regex(#"(?i)(x-api-key|x-app-secret|authorization)(["']?\s*[:=]\s*["']?)([^\s"',;\]]+)"#) {
            text = text.replacing(field) { match in
                "\(match.output[1].substring ?? "")\(match.output[2].substring ?? "")<redacted>"
            }
        }
        let wholes = [
            (#"(?i)bearer\s+[^\s"',;\]]+"#, "Bearer <redacted>"),
            (#"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"#, "<jwt>"),
            (#"\b(at|rt|ak|st)-[A-Za-z0-9]{6,}"#, "<token>"),
        ]
        for (pattern, replacement) in wholes {
            guard let regex = try? Regex(pattern) else { continue }
            text = text.replacing(regex, with: replacement)
        }
        return text
    }
}
