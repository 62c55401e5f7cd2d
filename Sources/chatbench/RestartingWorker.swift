import ArgumentParser
import Workbench

/// A worker started when first needed and again after each crash (or
/// each request it did not answer within `limit`).
final class RestartingWorker {
    let arguments: [String]
    let limit: Duration?
    private var worker: ExploreWorker?

    /// The limit `--timeout SECONDS` gives (`explore` and `shrink` take it
    /// alike): nil for 0, no limit. A limit beyond a billion seconds is
    /// none in practice, and is held there.
    static func limit(timeout seconds: Double) -> Duration? {
        seconds > 0 ? .milliseconds(Int64((min(seconds, 1e9) * 1000).rounded())) : nil
    }

    /// Refuses a `--timeout` that is no number of seconds: a negative
    /// one, `nan`, `inf`.
    static func validate(timeout seconds: Double) throws {
        guard seconds >= 0, seconds.isFinite else {
            throw ValidationError("--timeout must be 0 (no limit) or a number of seconds, got \(seconds)")
        }
    }

    init(arguments: [String], limit: Duration? = nil) {
        self.arguments = arguments
        self.limit = limit
    }

    /// Run `number` of the worker's file: its violations, a crash or a hang one of them.
    func run(_ number: Int) throws -> [Violation] { Self.violations(try perform { $0.run(number) }) }

    /// `lines` as they are (a shrink trial).
    func check(_ lines: [String]) throws -> [Violation] { Self.violations(try perform { $0.check(lines) }) }

    /// A transcript's shrink trial. A trial that crashes fails at the step
    /// it crashed in, with the crash as its signature (how it ended and the
    /// runtime's message: ``CrashMessage``); one that hangs, at the step
    /// it hung in.
    func trial(_ steps: [TranscriptShrinker.Step]) throws -> TranscriptShrinker.Trial {
        let worker = try self.worker ?? ExploreWorker(arguments: arguments, limit: limit)
        self.worker = worker
        switch worker.trial(steps) {
        case .finished(let trial): return trial
        case .died(let ending, let step, let outputs):
            self.worker = nil
            let signature: FailureSignature = ending.hung ? .stepHung(ending.how) : .stepCrashed(ending.how)
            let failure = TranscriptShrinker.Trial.Failure(index: step ?? 0, signature: signature)
            return TranscriptShrinker.Trial(failure: failure, outputs: outputs)
        }
    }

    func finish() {
        worker?.finish()
        worker = nil
    }

    private func perform(_ body: (ExploreWorker) -> ExploreWorker.Outcome) throws -> ExploreWorker.Outcome {
        let worker = try self.worker ?? ExploreWorker(arguments: arguments, limit: limit)
        self.worker = worker
        let outcome = body(worker)
        if case .died = outcome { self.worker = nil }
        return outcome
    }

    /// A run killed at the time limit breaks "no hang".
    static func violations(_ outcome: ExploreWorker.Outcome) -> [Violation] {
        switch outcome {
        case .finished(let violations): violations
        case .died(let ending) where ending.hung: [Violation(invariant: .hang, detail: "the run hung (\(ending.how))")]
        case .died(let ending): [Violation(invariant: .crash, detail: "the run crashed (\(ending.how))")]
        }
    }
}
