import Workbench

/// What an explore worker says on its standard output: one value a line
/// after ``prefix``, written by ``ExploreWorkerCommand`` and read by
/// ``ExploreWorker`` through this one type (``WorkerMessage``). A request
/// to run is announced (``startedRun(number:)``, ``startedCheck``) before
/// it runs and answered after, so that a worker that ends between the two
/// crashed in it; a trial says its ``TrialProgress`` as it goes.
enum WorkerAnswer: WorkerMessage, Hashable {
    /// Run `number` is about to run.
    case startedRun(number: Int)
    /// A ``WorkerRequest/check(lines:)`` is about to run.
    case startedCheck
    /// How a trial goes, before its answer.
    case progress(TrialProgress)
    /// The answer to a run or a check: what did not hold.
    case finished(violations: [Violation])
    /// The answer to a trial.
    case tried(TranscriptShrinker.Trial)

    static let kind = "answer"

    // Each unlabelled value under a key that names it, not Swift's `_0`.
    enum ProgressCodingKeys: String, CodingKey { case _0 = "progress" }
    enum TriedCodingKeys: String, CodingKey { case _0 = "trial" }

    /// What begins each answer's line on the worker's standard output
    /// (anything else there is not an answer).
    static let prefix = "chatbench-worker: "

    /// The line the worker writes (without its newline).
    var line: String { Self.prefix + json }

    /// The answer a line of the worker's output holds; nil for a line that
    /// is not an answer (without ``prefix``).
    static func read(_ line: Substring) throws(WorkerMessageError) -> WorkerAnswer? {
        guard line.hasPrefix(prefix) else { return nil }
        return try WorkerAnswer(json: line.dropFirst(prefix.count))
    }
}
