/// What a replay found (SPEC W7).
public struct ReplayOutcome: Sendable {
    /// The first step whose output differs from the recording.
    public struct Divergence: Sendable, Hashable {
        public var step: Int
        /// The recorded (redacted) input.
        public var input: String
        public var expected: String
        public var actual: String
        /// `  same`, `- recorded`, `+ replayed` lines.
        public var diff: [String]
        /// Why, when it can be told (a verb this version lacks…).
        public var hint: String?
    }

    public var session: RecordedSession
    /// Steps run.
    public var stepsRun: Int
    /// nil when every step printed what it printed when recorded.
    public var divergence: Divergence?
    /// How many steps differ (all of them are run with `update`).
    public var changedSteps: Int
    /// Things the user should know (secrets typed by hand, another version).
    public var notes: [String]
    /// The replay's steps, redacted, for `--update`.
    public var steps: [RecordedStep]
    /// The traffic of the steps run, as recorded (redacted): with `steps`,
    /// what the replay's HTML sequence view draws.
    public var traffic: [RecordedTraffic] = []
    /// Virtual time the session covers, in milliseconds.
    public var virtualMilliseconds: Int64
    /// Wall time the replay took, in seconds.
    public var seconds: Double
    /// `--tape` only: where the SDK's requests (or the other side's calls)
    /// differed from the tape, and what the tape has that was never asked.
    public var tapeDivergences: [String] = []
    public var unusedTape: [String] = []

    public var identical: Bool { divergence == nil && tapeDivergences.isEmpty }
}
