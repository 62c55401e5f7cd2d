import ChatBackend
import ChatCore
import Foundation
import Synchronization

/// The real world the server's backend runs in: the system clock, and
/// identifiers from the system's random generator, or from a seeded one for
/// reproducible runs (`chatbench serve --seed`).
enum ServerEnvironment {
    static func make(seed: UInt64?) -> BackendEnvironment {
        let now: @Sendable () -> Instant = {
            Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        }
        if let seed {
            let generator = Mutex(SeededRandom(seed: seed))
            return BackendEnvironment(
                now: now,
                makeID: { prefix in
                    let value = generator.withLock { $0.next() }
                    return prefix + hex(value)
                })
        }
        return BackendEnvironment(
            now: now,
            makeID: { prefix in
                // 128 bits: tokens must not be guessable.
                var generator = SystemRandomNumberGenerator()
                return prefix + hex(generator.next()) + hex(generator.next())
            })
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
