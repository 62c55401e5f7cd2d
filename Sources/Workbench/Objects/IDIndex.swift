/// Finds an element of a table by its key, for a table that keeps the keys
/// itself: one 4-byte slot per position, open addressing with linear
/// probing, at most three quarters full. A dictionary from key to position
/// would keep a second copy of every key and grow by whole doublings of
/// both (issue 17).
struct IDIndex {
    /// Positions, or -1 for an empty slot; a power of two of them.
    private var slots: [Int32] = []
    private(set) var count = 0

    /// The position whose key `matches` says is the one sought.
    func find(hash: Int, matches: (Int32) -> Bool) -> Int32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 {
            if matches(slots[slot]) { return slots[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds `position` for a key of this hash; a position whose key
    /// `matches` (the same key) is replaced. `hashOf` gives the hash of
    /// the key at any position already added, to spread them again as
    /// the index grows.
    mutating func insert(_ position: Int32, hash: Int, hashOf: (Int32) -> Int, matches: (Int32) -> Bool) {
        if (count + 1) * 4 > slots.count * 3 { grow(hashOf: hashOf) }
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 {
            if matches(slots[slot]) {
                slots[slot] = position
                return
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = position
        count += 1
    }

    private mutating func grow(hashOf: (Int32) -> Int) {
        let old = slots
        slots = Array(repeating: -1, count: Swift.max(16, old.count * 2))
        let mask = slots.count - 1
        for position in old where position >= 0 {
            var slot = hashOf(position) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = position
        }
    }
}
