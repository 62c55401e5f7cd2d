import ChatSDK

/// The session's settings and what its steps leave behind (issue 29):
/// what `timing`, `net log`, `reset` and `run` change, the last SDK error
/// (`error`) and why the current step failed. The interpreter and a
/// command's context (``CommandContext/Session``, and the world and
/// inspection parts for `error` and a failed check) share one.
// @unchecked Sendable: touched only by the thread running the step (the
// one holding the stage, as for the interpreter that owns it).
final class SessionSettings: @unchecked Sendable {
    /// The world's seed.
    let seed: UInt64
    /// `timing on`: after each command, the virtual and the wall time it took.
    var timing = false
    /// `net log on`: the step shows each request the SDK makes.
    var showNetwork = false
    /// `reset` ran: the session replaces its interpreter after the step.
    var resetRequested = false
    /// How deep `run` is nested.
    var runDepth = 0
    /// The lines typed in this session, redacted (what `history` lists
    /// when no `historySource` is set).
    var typedLines: [String] = []
    /// Earlier lines, from the REPL's history store.
    var historySource: (() -> [String])?
    /// The recorder of this session, for `sessions` and `record stop`; nil when not recording.
    weak var recording: (any RecordingControl)?
    /// `error`: the last error of an SDK call.
    var lastError: ChatError?
    /// Why the current step failed, when it did: what an expect or a wait
    /// found, or the script error's message (`StepResult.failure`).
    var stepFailure: String?

    init(seed: UInt64) { self.seed = seed }
}
