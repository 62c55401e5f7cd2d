import ChatBackend
import ChatCore

/// The real world the server's backend runs in: the system clock, and
/// identifiers from the system's random generator, or from a seeded one for
/// reproducible runs (`chatbench serve --seed`).
enum ServerEnvironment {
    static func make(seed: UInt64?) -> BackendEnvironment {
        guard let seed else {
            // 128 bits: tokens must not be guessable.
            return BackendEnvironment(clock: .system, random: .system(idDigits: 32))
        }
        return BackendEnvironment(clock: .system, random: RandomSource(seed: seed, idDigits: 16))
    }
}
