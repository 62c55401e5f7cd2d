/// Seeded random streams, one per purpose and per device, each independent
/// of the others: what one stream draws never moves another on.
///
/// The embedded world draws identifiers from its one ``RandomSource``, but
/// jitter from streams of these: a back-off's jitter (per device) and the
/// network's (per link). When several things are ready at one virtual
/// instant, the order in which they run may differ between builds (an
/// optimised build takes fewer executor hops); with one shared sequence a
/// jitter drawn before an identifier in one build and after it in the
/// other changed both. Streams keep each draw's value to the order within
/// its own purpose and device, which the world's serial executor fixes.
///
/// ```swift
/// let streams = RandomStreams(seed: 1)
/// streams.source("jitter phone").fraction()   // the same on every run and build
/// ```
package final class RandomStreams: Sendable {
    private let seed: UInt64
    private let sources: LockedValue<[String: RandomSource]>

    package init(seed: UInt64) {
        self.seed = seed
        sources = LockedValue([:])
    }

    /// The stream named `name`, made at its first use from the seed and the
    /// name (FNV-1a of its UTF-8 bytes, so the same on every machine and
    /// process, unlike `Hasher`).
    package func source(_ name: String) -> RandomSource {
        sources.withLock { sources in
            if let source = sources[name] { return source }
            var mixer = SeededRandom(seed: seed ^ Self.fnv1a(name))
            let source = RandomSource(seed: mixer.next())
            sources[name] = source
            return source
        }
    }

    /// 64-bit FNV-1a of `text`'s UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Numbers handed out in order, one sequence per name: which stream of a
/// ``RandomStreams`` a new client or transport gets, by the order in which
/// the script made them (not by a device id, which may be random).
package final class StreamNumbers: Sendable {
    private let next: LockedValue<[String: Int]>

    package init() { next = LockedValue([:]) }

    /// 1, 2, 3… for each `name`.
    package func next(_ name: String) -> Int {
        next.withLock { numbers in
            let number = (numbers[name] ?? 0) + 1
            numbers[name] = number
            return number
        }
    }
}
