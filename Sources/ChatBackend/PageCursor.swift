import ChatCore
import Foundation

/// The opaque cursors of paginated answers: a tag and a position, so that
/// clients do not read meaning into them.
///
/// Conversation cursors hold the (updatedAt, id) of the last element given,
/// as `c<updatedAt>.<the id's UTF-8 bytes in lowercase hex>`; message cursors
/// its seq, as `m<seq>`. Both are what docs/openapi.json's patterns for them
/// describe (issue 26: a schema that admits a cursor the server refuses makes
/// valid requests fail), so every cursor of the pattern is a position:
/// ids whose hex is not UTF-8 are read leniently. The base64url cursors of
/// earlier servers (`c1:<updatedAt>:<id>`, `m1:<seq>`) are still read.
/// Anything else, including a cursor of the other kind, is `badRequest`.
/// (`messagesSince`'s cursor is a plain seq: see
/// ``Backend/sinceSeq(fromCursor:)``.)
enum PageCursor: Hashable {
    case conversations(updatedAt: Int64, id: String)
    case messages(beforeSeq: Int64)

    /// The longest cursor read: a conversation id of 256 four-byte scalars in hex, and its time.
    static let maxLength = 2_100

    var encoded: String {
        switch self {
        case .conversations(let updatedAt, let id):
            "c\(updatedAt).\(id.utf8.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined())"
        case .messages(let seq): "m\(seq)"
        }
    }

    init(decoding string: String) throws(WireError) {
        let malformed = WireError(.badRequest, "The cursor is malformed")
        guard string.utf8.count <= Self.maxLength,
            string.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") })
        else {
            throw malformed
        }
        if let cursor = Self(plain: string) {
            self = cursor
            return
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

    /// A cursor of the current form (`m<seq>`, `c<updatedAt>.<hex>`), nil otherwise.
    private init?(plain string: String) {
        let bytes = Array(string.utf8)
        guard let tag = bytes.first else { return nil }
        let rest = bytes.dropFirst()
        switch tag {
        case UInt8(ascii: "m"):
            guard (1...19).contains(rest.count), rest.allSatisfy({ (0x30...0x39).contains($0) }),
                let seq = Int64(String(decoding: rest, as: UTF8.self))
            else { return nil }
            self = .messages(beforeSeq: seq)
        case UInt8(ascii: "c"):
            guard let dot = rest.firstIndex(of: UInt8(ascii: ".")) else { return nil }
            let time = rest[..<dot]
            let hex = rest[(dot + 1)...]
            guard (1...20).contains(time.count), let updatedAt = Int64(String(decoding: time, as: UTF8.self)),
                !hex.isEmpty, hex.count % 2 == 0
            else { return nil }
            var id: [UInt8] = []
            id.reserveCapacity(hex.count / 2)
            var high: UInt8?
            for byte in hex {
                let nibble: UInt8
                switch byte {
                case 0x30...0x39: nibble = byte - 0x30
                case 0x61...0x66: nibble = byte - 0x61 + 10
                default: return nil
                }
                if let first = high {
                    id.append(first << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            self = .conversations(updatedAt: updatedAt, id: String(decoding: id, as: UTF8.self))
        default:
            return nil
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
