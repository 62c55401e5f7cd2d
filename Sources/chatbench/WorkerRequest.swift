import Workbench

/// What `explore` or `shrink` asks of an explore worker: one value a line
/// on its standard input, written by ``ExploreWorker`` and read by
/// ``ExploreWorkerCommand`` through this one type (``WorkerMessage``).
enum WorkerRequest: WorkerMessage, Hashable {
    /// Run `number` of the worker's file under its fault schedule.
    case run(number: Int)
    /// The given lines as they are (a script's shrink trial).
    case check(lines: [String])
    /// A transcript's shrink trial (``TranscriptShrinker``): the steps in a fresh world.
    case trial(steps: [TranscriptShrinker.Step])

    static let kind = "request"
}
