import ChatCore

/// What the backend needs from the world it runs in: a clock and a source of
/// identifiers, the same two abstractions an SDK runtime is built from.
///
/// The backend never reads the system clock or the system random generator;
/// in the embedded world both come from the deterministic simulation, so a
/// run replays exactly.
///
/// ```swift
/// let env = BackendEnvironment(clock: TimeSource { scheduler.now }, random: RandomSource(seed: 1))
/// let backend = try Backend(environment: env)
/// ```
package struct BackendEnvironment: Sendable {
    /// Where the time comes from.
    package var clock: TimeSource
    /// Where identifiers come from; deterministic in the simulation.
    package var random: RandomSource

    /// Creates an environment from a clock and a random source.
    package init(clock: TimeSource, random: RandomSource) {
        self.clock = clock
        self.random = random
    }

    /// The current time.
    package func now() -> Instant { clock.now }

    /// `prefix` followed by random hex digits.
    package func makeID(_ prefix: String) -> String { random.makeID(prefix: prefix) }
}
