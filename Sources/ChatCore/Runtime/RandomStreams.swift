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
    /// How many streams ``next(_:)`` has handed out, per purpose.
    private let counts: LockedValue<[String: Int]>

    package init(seed: UInt64) {
        self.seed = seed
        sources = LockedValue([:])
        counts = LockedValue([:])
    }

    /// A new stream for `purpose`: `"purpose 1"`, then `"purpose 2"`…, in
    /// the order asked (the order in which the script makes clients and
    /// transports, not a device id, which may be random).
    package func next(_ purpose: String) -> RandomSource {
        let number = counts.withLock { counts in
            let number = (counts[purpose] ?? 0) + 1
            counts[purpose] = number
            return number
        }
        return source("\(purpose) \(number)")
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
