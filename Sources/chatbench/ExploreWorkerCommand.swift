import ArgumentParser
import Foundation
import Workbench

/// `chatbench explore-worker FILE` (hidden): the child process `explore`
/// and `shrink` run their runs in, so that a crash ends one run, not the
/// exploration. It reads requests on standard input and writes answers on
/// standard output, one value a line (``WorkerRequest``, ``WorkerAnswer``):
///
/// - `run(number:)`: run N of FILE under its fault schedule;
/// - `check(lines:)`: the given lines as they are (a shrink trial);
/// - `trial(steps:)`: a transcript's shrink trial (``TranscriptShrinker``):
///   it says its ``TrialProgress`` before each step and after it (the step
///   it is on, what each printed), and answers `tried(trial)`.
///
/// It announces a run or a check (`startedRun`, `startedCheck`) before
/// running it and answers `finished(violations:)` after, so a process that
/// ends between the two crashed in that run. A line that is no request
/// ends it with a one-line error, exit status 2.
struct ExploreWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore-worker", abstract: "The child process explore runs its runs in (internal).", shouldDisplay: false)

    /// For tests only: the worker traps on purpose in a run or trial whose
    /// lines include this exact line (a stand-in for an SDK crash). Its
    /// message names an object's address, as the runtime's do (an unowned
    /// reference read after it was freed), which differs from one process
    /// to the next.
    static let crashVariable = "CHATBENCH_TEST_CRASH_ON_LINE"

    /// For tests only: the worker hangs on purpose (sleeps for ever) in a
    /// run or trial whose lines include this exact line (a stand-in for a
    /// deadlock in the SDK).
    static let hangVariable = "CHATBENCH_TEST_HANG_ON_LINE"

    @Argument var file: String?
    @Option var seed: UInt64 = 1
    @Option var faults: String?
    @Flag var noExpects = false

    func run() throws {
        var explorer = Explorer()
        explorer.seed = seed
        explorer.kinds = try ExploreCommand.kinds(faults)
        explorer.checkExpects = !noExpects
        let lines = file.map(ExploreCommand.inputs(of:)) ?? []
        var budget: Duration?
        let crashLine = ProcessInfo.processInfo.environment[Self.crashVariable]
        let hangLine = ProcessInfo.processInfo.environment[Self.hangVariable]
        func answer(_ answer: WorkerAnswer) {
            Terminal.write(answer.line + "\n")
            Terminal.flush()
        }
        func crashIfAsked(_ candidate: [String]) {
            if let crashLine, candidate.contains(crashLine) {
                let object = Unmanaged.passUnretained(JSONEncoder()).toOpaque()
                fatalError("object \(object): \(Self.crashVariable) asked for a crash at \"\(crashLine)\"")
            }
            if let hangLine, candidate.contains(hangLine) {
                while true { sleep(3600) }
            }
        }
        while let line = readLine() {
            let request: WorkerRequest
            do { request = try WorkerRequest(json: Substring(line)) } catch { SessionSource.fail("explore-worker: \(error)") }
            switch request {
            case .trial(let steps):
                let trial = try TranscriptShrinker.trial(
                    steps, seed: seed,
                    willRun: { index, step in
                        answer(.progress(.willRun(step: index)))
                        crashIfAsked([step.input])
                    },
                    ran: { index, output in answer(.progress(.ran(step: index, output: output))) })
                answer(.tried(trial))
            case .run(let number):
                answer(.startedRun(number: number))
                crashIfAsked(explorer.planned(lines, run: number).lines)
                if budget == nil { budget = try explorer.budget(for: lines) }
                explorer.budget = budget!
                answer(.finished(violations: try explorer.run(lines, number: number).violations))
            case .check(let candidate):
                answer(.startedCheck)
                crashIfAsked(candidate)
                answer(.finished(violations: try Explorer.check(candidate, seed: seed, expects: !noExpects)))
            }
        }
    }
}
