/// Where a runtime draws its random bits: the embedded world's seeded
/// generator, or the system's. The one randomness abstraction of the
/// package: the SDK's runtimes and the backend's environment are built from
/// one, and everything random (identifiers, jitter, choices) is derived
/// from one primitive, ``nextUInt64()``.
///
/// Copies share their generator: an identifier drawn through one copy moves
/// every copy on, which is how the world's backend, network and runtime draw
/// from one sequence.
///
/// ```swift
/// let seeded = RandomSource(seed: 1)          // ids like "m-89025cc1"
/// let tokens = RandomSource.system(idDigits: 32)
/// ```
package struct RandomSource: Sendable {
    /// How many hex digits an identifier ends with: 8 uses the low 32 bits
    /// of one draw, 16 one whole draw, 32 two draws (the first one first).
    package let idDigits: Int
    /// What every identifier carries between its prefix and its digits
    /// (which session minted it), empty by default.
    package let idTag: String
    private let generator: Generator
    /// Identifiers given out again before any is drawn (a replay).
    private let replayed: ReplayedIDs?

    /// The generator behind a lock, shared by the copies of a source.
    private final class Generator: Sendable {
        let locked: LockedValue<any RandomNumberGenerator & Sendable>
        init(_ generator: any RandomNumberGenerator & Sendable) { locked = LockedValue(generator) }
    }

    /// A source drawing from `generator`.
    package init(
        _ generator: some RandomNumberGenerator & Sendable, idDigits: Int = 8, idTag: String = "", replaying replayed: ReplayedIDs? = nil
    ) {
        precondition(idDigits > 0, "an identifier needs at least one digit")
        self.generator = Generator(generator)
        self.idDigits = idDigits
        self.idTag = idTag
        self.replayed = replayed
    }

    /// A reproducible source: ``SeededRandom`` from `seed`.
    package init(seed: UInt64, idDigits: Int = 8, idTag: String = "") {
        self.init(SeededRandom(seed: seed), idDigits: idDigits, idTag: idTag)
    }

    /// The system's random generator (identifiers that must not be guessable).
    package static func system(idDigits: Int = 16) -> RandomSource {
        RandomSource(SystemRandomNumberGenerator(), idDigits: idDigits)
    }

    // MARK: The primitive

    /// 64 random bits: the one draw everything else is made of.
    package func nextUInt64() -> UInt64 {
        generator.locked.withLock { $0.next() }
    }

    // MARK: Derived

    /// A number in `range`, drawn as the standard library's
    /// `Int.random(in:using:)` draws it (one or more draws, under one lock).
    package func int(in range: ClosedRange<Int>) -> Int {
        generator.locked.withLock { Int.random(in: range, using: &$0) }
    }

    /// `prefix`, the tag, then ``idDigits`` hex digits from fresh draws.
    /// An identifier of ``ReplayedIDs`` comes first, while it has one for `prefix`.
    package func makeID(prefix: String) -> String {
        if let id = replayed?.next(prefix: prefix) { return id }
        let words = (idDigits + 15) / 16
        var digits = ""
        for _ in 0..<words { digits += Self.hex(nextUInt64()) }
        return prefix + idTag + digits.suffix(idDigits)
    }

    /// A number in [0, 1) from the low 32 bits of one draw (jitter).
    package func fraction() -> Double {
        Double(nextUInt64() & 0xFFFF_FFFF) / 4_294_967_296
    }

    /// `value` as 16 hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The identifiers a recorded run minted, by prefix, in the order it
/// minted them: a replay of an app's field recording (`chatbench replay
/// FILE`) mints them again, so that its requests are the tape's and its
/// events the recording's.
///
/// ```swift
/// let ids = ReplayedIDs(["m-": ["m-3f2a…", "m-9c1b…"]])
/// let random = RandomSource(seed: 1, replaying: ids)
/// random.makeID(prefix: "m-")    // "m-3f2a…", then "m-9c1b…", then drawn
/// ```
package final class ReplayedIDs: Sendable {
    private let queues: LockedValue<[String: ArraySlice<String>]>

    package init(_ ids: [String: [String]]) {
        queues = LockedValue(ids.mapValues { $0[...] })
    }

    /// The next identifier with `prefix`, taken; nil when none is left.
    package func next(prefix: String) -> String? {
        queues.withLock { $0[prefix]?.popFirst() }
    }
}

extension RandomSource {
    /// A reproducible source that gives out `replayed` first.
    package init(seed: UInt64, idDigits: Int = 8, replaying replayed: ReplayedIDs) {
        self.init(SeededRandom(seed: seed), idDigits: idDigits, replaying: replayed)
    }
}
