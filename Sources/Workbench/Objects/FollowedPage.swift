import ChatSDK

/// The page a tracking watcher showed last: its messages, where each sits
/// in the table, and each record's version once it was followed.
struct FollowedPage {
    let messages: [Message]
    let indexes: [Int]
    let versions: [UInt32]

    /// For each of `messages`, its position in `last` (-1: not there).
    /// Pages move by a few messages at a time, at either end; messages are
    /// read in place (through array subscripts each was copied out first).
    static func positions(of messages: [Message], in last: [Message]) -> [Int] {
        messages.withUnsafeBufferPointer { new in
            last.withUnsafeBufferPointer { old in
                var offset = old.count
                if let first = new.first?.id, let at = old.indices.first(where: { old[$0].id == first }) {
                    offset = at
                } else if let first = old.first?.id, let at = new.indices.first(where: { new[$0].id == first }) {
                    offset = -at
                }
                return new.indices.map { position in
                    let at = offset + position
                    return at >= 0 && at < old.count && old[at].id == new[position].id ? at : -1
                }
            }
        }
    }

    /// `a[i] == b[j]`, compared in place (through array subscripts, each
    /// message was copied out first: a dozen fields, two copies per test).
    static func same(_ a: [Message], _ i: Int, _ b: [Message], _ j: Int) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a[i] == b[j] } }
    }
}
