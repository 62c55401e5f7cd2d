import ChatCore

/// What the backend needs from the world it runs in: a clock and a source of
/// identifiers.
///
/// The backend never reads the system clock or the system random generator;
/// in the embedded world both come from the deterministic simulation, so a
/// run replays exactly.
///
/// ```swift
/// let env = BackendEnvironment(now: { clock.now }, makeID: { prefix in prefix + rng.hex(16) })
/// let backend = try Backend(environment: env)
/// ```
package struct BackendEnvironment: Sendable {
    /// The current time.
    package var now: @Sendable () -> Instant
    /// Returns `prefix` + random hex; deterministic in the simulation.
    package var makeID: @Sendable (_ prefix: String) -> String

    /// Creates an environment from a clock and an identifier generator.
    package init(now: @escaping @Sendable () -> Instant, makeID: @escaping @Sendable (_ prefix: String) -> String) {
        self.now = now
        self.makeID = makeID
    }
}
