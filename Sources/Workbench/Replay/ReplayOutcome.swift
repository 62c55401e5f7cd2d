/// What a replay found (SPEC W7).
package struct ReplayOutcome: Sendable {
    /// The first step whose output differs from the recording.
    package struct Divergence: Sendable, Hashable {
        package var step: Int
        /// The recorded (redacted) input.
        package var input: String
        package var expected: String
        package var actual: String
        /// The diff, each line typed (same, recorded, replayed).
        package var diffLines: [LineDiff.Line]
        /// `  same`, `- recorded`, `+ replayed` lines.
        package var diff: [String] { diffLines.map(\.text) }
        /// Why, when it can be told (a verb this version lacks…).
        package var hint: String?
    }

    package var session: RecordedSession
    /// Steps run.
    package var stepsRun: Int
    /// nil when every step printed what it printed when recorded.
    package var divergence: Divergence?
    /// How many steps differ (all of them are run with `update`).
    package var changedSteps: Int
    /// Things the user should know (secrets typed by hand, another version).
    package var notes: [String]
    /// The replay's steps, redacted, for `--update`.
    package var steps: [RecordedStep]
    /// The traffic of the steps run, as recorded (redacted): with `steps`,
    /// what the replay's HTML sequence view draws.
    package var traffic: [RecordedTraffic] = []
    /// Virtual time the session covers, in milliseconds.
    package var virtualMilliseconds: Int64
    /// Wall time the replay took, in seconds.
    package var seconds: Double
    /// `--tape` only: where the SDK's requests (or the other side's calls)
    /// differed from the tape, and what the tape has that was never asked.
    package var tapeDivergences: [String] = []
    package var unusedTape: [String] = []

    package var identical: Bool { divergence == nil && tapeDivergences.isEmpty }
}
