import ChatCore

/// A runtime whose happenings the workbench shows: the embedded world and
/// the workbench's stages. The SDK never traces (its own events go through
/// `Configuration.onEvent`); the simulated network, the token provider and
/// the workbench's delegate do, and the workbench turns each trace into a
/// line of its event log.
package protocol TracingRuntime: ChatRuntime {
    /// Reports something worth showing (a request's fate, a provider asked
    /// for tokens) to whoever observes the world.
    func trace(_ trace: Trace)

    /// Waits as `sleep(until:kind:)` does, one leg of `trip`: a cut of the
    /// trip ends the wait, throwing its ``WireTrip/Cut``. The embedded
    /// world ends it at once; by default the wait goes to its end and the
    /// cut is thrown then.
    func sleep(until deadline: Instant, kind: WaitKind, trip: WireTrip) async throws
}

extension TracingRuntime {
    /// Reports a line of `source` (``Trace/line(source:message:)``).
    package func trace(_ source: String, _ message: String) {
        trace(.line(source: source, message: message))
    }

    package func sleep(until deadline: Instant, kind: WaitKind, trip: WireTrip) async throws {
        try await sleep(until: deadline, kind: kind)
        if let cut = trip.cutSoFar { throw cut }
    }
}
