import ChatCore
import Foundation

/// The opaque cursors of paginated answers: a tag and a position, base64url
/// encoded so that clients do not read meaning into them.
///
/// Conversation cursors hold the (updatedAt, id) of the last element given;
/// message cursors hold its seq. Anything that does not decode, including a
/// cursor of the other kind, is `badRequest`. (`messagesSince`'s cursor is
/// not opaque: see ``Backend/sinceSeq(fromCursor:)``.)
enum PageCursor: Hashable {
    case conversations(updatedAt: Int64, id: String)
    case messages(beforeSeq: Int64)

    var encoded: String {
        let raw: String
        switch self {
        case .conversations(let updatedAt, let id): raw = "c1:\(updatedAt):\(id)"
        case .messages(let seq): raw = "m1:\(seq)"
        }
        return Data(raw.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init(decoding string: String) throws(WireError) {
        let malformed = WireError(.badRequest, "The cursor is malformed")
        guard string.utf8.count <= 2048, string.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw malformed
        }
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let raw = String(data: data, encoding: .utf8) else { throw malformed }
        let parts = raw.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.first {
        case "c1":
            guard parts.count == 3, let updatedAt = Int64(parts[1]), !parts[2].isEmpty else { throw malformed }
            self = .conversations(updatedAt: updatedAt, id: String(parts[2]))
        case "m1":
            guard parts.count == 2, let seq = Int64(parts[1]) else { throw malformed }
            self = .messages(beforeSeq: seq)
        default:
            throw malformed
        }
    }

    /// Clamps a requested page size to 1...100.
    static func clamp(_ limit: Int) -> Int { min(max(limit, 1), 100) }
}

extension Backend {
    /// A `messagesSince` page's `nextCursor` is the seq of its last message,
    /// in decimal: the seq to ask the next page after. The server's since
    /// route also takes it as `?cursor=` in place of its seq, so that a client
    /// following `nextCursor` reaches the last page. 1 to 18 digits
    /// (docs/openapi.json's pattern); anything else is `badRequest`.
    package static func sinceSeq(fromCursor cursor: String) throws(WireError) -> Int64 {
        guard (1...18).contains(cursor.utf8.count), cursor.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seq = Int64(cursor) else {
            throw WireError(
                .badRequest, "The cursor of messagesSince is a seq (1 to 18 digits), got \(String(cursor.prefix(40)).debugDescription)")
        }
        return seq
    }

    /// The `nextCursor` of a `messagesSince` page whose last message has `seq`.
    static func sinceCursor(after seq: Int64) -> String { String(seq) }
}
