import ChatCore
import Synchronization

/// The world's one seeded random source, shared by everything in it.
package final class RandomSource: Sendable {
    private let generator: Mutex<SeededRandom>

    package init(seed: UInt64) { generator = Mutex(SeededRandom(seed: seed)) }

    package func next() -> UInt64 { generator.withLock { $0.next() } }

    package func int(in range: ClosedRange<Int>) -> Int {
        generator.withLock { Int.random(in: range, using: &$0) }
    }

    /// `prefix` followed by 8 hex digits.
    package func makeID(prefix: String) -> String {
        let hex = String(next() & 0xFFFF_FFFF, radix: 16)
        return prefix + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
