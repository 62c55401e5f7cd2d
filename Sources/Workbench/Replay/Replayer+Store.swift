extension Replayer {
    /// Replays session `recorded` of `store` as `chatbench replay` and the
    /// REPL's `replay` both do: an app's field recording from its tape, a
    /// server session from its traffic tape with `tape`, any other in a
    /// fresh embedded world. With `update` the new output is written back
    /// when a step changed (never for a tape or a field recording: what
    /// they hold was made elsewhere).
    package static func replay(
        _ recorded: RecordedSession, of store: RecordingStore, update: Bool = false, tape: Bool = false, keepTraffic: Bool = false
    ) throws(RecordingError) -> ReplayOutcome {
        if tape, update {
            throw RecordingError(
                .unsupported, "--tape replays a server session as recorded; --update cannot re-record it (record it again against a server)"
            )
        }
        if recorded.isFieldRecording, update {
            throw RecordingError(
                .unsupported, "session \(recorded.label) is an app's field recording: --update cannot re-record it (the device made it)")
        }
        let steps = try store.steps(of: recorded.id)
        let outcome =
            recorded.isFieldRecording
            ? try replayField(recorded, steps: steps, traffic: try store.traffic(of: recorded.id))
            : tape
                ? try replayTape(recorded, steps: steps, traffic: try store.traffic(of: recorded.id))
                : try replay(recorded, steps: steps, update: update, keepTraffic: keepTraffic)
        if update, outcome.changedSteps > 0 {
            try store.replaceSteps(of: recorded.id, with: outcome.steps)
        }
        return outcome
    }
}
