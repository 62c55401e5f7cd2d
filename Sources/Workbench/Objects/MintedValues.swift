import ChatSDK

/// The values the client or the server minted that a session knows by what
/// they are: a conversation's id is `c1.id`, its id on the server
/// `c1.serverId`, an anonymous user's id `client.user` (issue 30).
///
/// Against a server such a value differs from the embedded world's, and
/// from run to run (a session's random part, the server's own draws).
/// Output is compared with each one written as its name, found where it
/// appears as the redactor finds the secrets it knows, however the output
/// was formatted: never recognised by what it looks like. A value the
/// script itself named (`start conversation --id c-visit`) is not minted
/// and stays as it is.
///
/// Kept only when asked (``isKept``: a run checked against a server, a
/// server session's recording): a session of 100,000 messages keeps no
/// second copy of each id otherwise.
struct MintedValues: Sendable {
    /// Whether values are kept at all.
    var isKept = false
    /// Each value and its name, in the order the session learned them.
    private(set) var entries: [(value: String, name: String)] = []
    private var names: [String: String] = [:]
    private var taken: Set<String> = []

    init(isKept: Bool = false) { self.isKept = isKept }

    /// Learns `value` as `name`; a value learned before keeps its first
    /// name, and a name already given to another value is numbered
    /// (`client.user#2`: the second anonymous user of one client). The
    /// name is made only when the value is kept: a send in the embedded
    /// world makes none.
    mutating func learn(_ value: String, as name: @autoclosure () -> String) {
        guard isKept, !value.isEmpty, names[value] == nil else { return }
        let name = name()
        var unique = name
        var number = 2
        while taken.contains(unique) {
            unique = "\(name)#\(number)"
            number += 1
        }
        names[value] = unique
        taken.insert(unique)
        entries.append((value, unique))
    }

    /// The name of `value`, when it is one of these.
    func name(of value: String) -> String? { names[value] }

    /// Where these values occur in `text`, as UTF-8 offsets, in order and
    /// never overlapping: a longer value wins over one it holds, and a
    /// value counts only where it is not part of a longer word (`c-1` is
    /// not found in `c-12`).
    func occurrences(in text: String) -> [(range: Range<Int>, name: String)] {
        guard !entries.isEmpty else { return [] }
        let bytes = Array(text.utf8)
        var found: [(range: Range<Int>, name: String)] = []
        bytes.withUnsafeBufferPointer { haystack in
            for (value, name) in entries.sorted(by: { $0.value.utf8.count > $1.value.utf8.count }) {
                let needle = Array(value.utf8)
                var start = 0
                while let at = haystack.firstOccurrence(of: needle, from: start) {
                    let range = at..<at + needle.count
                    start = at + 1
                    guard Self.standsAlone(range, in: bytes), !found.contains(where: { $0.range.overlaps(range) }) else { continue }
                    found.append((range, name))
                }
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// `text` with each of these values written as `<name>`.
    func naming(in text: String) -> String {
        let found = occurrences(in: text)
        guard !found.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var named: [UInt8] = []
        var end = 0
        for (range, name) in found {
            named += bytes[end..<range.lowerBound]
            named += Array("<\(name)>".utf8)
            end = range.upperBound
        }
        named += bytes[end...]
        return String(decoding: named, as: UTF8.self)
    }

    /// Whether the bytes either side of `range` end a word: not a letter,
    /// a digit, `_` or `-`.
    private static func standsAlone(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        func isWord(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                || byte == 0x2D
        }
        if range.lowerBound > 0, isWord(bytes[range.lowerBound - 1]) { return false }
        if range.upperBound < bytes.count, isWord(bytes[range.upperBound]) { return false }
        return true
    }
}
