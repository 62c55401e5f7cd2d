import ArgumentParser
import Foundation
import Workbench

/// `chatbench explore-worker FILE` (hidden): the child process `explore`
/// and `shrink` run their runs in, so that a crash ends one run, not the
/// exploration. It reads requests on standard input, one a line:
///
/// - `run N`: run N of FILE under its fault schedule;
/// - `check ["line", …]`: the given lines as they are (a shrink trial);
/// - `trial [step, …]`: a transcript's shrink trial (``TranscriptShrinker``):
///   it says `progress {…}` before each step and after it (a
///   ``TrialProgress``: the step it is on, what each printed), and answers
///   `done {the trial as JSON}`.
///
/// It announces each (`started N`, `started check`) before running it and
/// answers `done [violations as JSON]` after, so a process that ends between
/// the two crashed in that run.
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func answer(_ line: String) {
            Terminal.write(ExploreWorker.prefix + line + "\n")
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
        while let request = readLine() {
            let violations: [Violation]
            if request.hasPrefix("trial "),
                let steps = try? JSONDecoder().decode([TranscriptShrinker.Step].self, from: Data(request.dropFirst(6).utf8))
            {
                let trial = try TranscriptShrinker.trial(
                    steps, seed: seed,
                    willRun: { index, step in
                        answer(TrialProgress.willRun(step: index).line)
                        crashIfAsked([step.input])
                    },
                    ran: { index, output in answer(TrialProgress.ran(step: index, output: output).line) })
                answer("done " + String(decoding: try encoder.encode(trial), as: UTF8.self))
                continue
            }
            if request.hasPrefix("run "), let number = Int(request.dropFirst(4)) {
                answer("started \(number)")
                crashIfAsked(explorer.lines(of: lines, run: number))
                if budget == nil { budget = try explorer.budget(for: lines) }
                explorer.budget = budget!
                violations = try explorer.run(lines, number: number).violations
            } else if request.hasPrefix("check "),
                let candidate = try? JSONDecoder().decode([String].self, from: Data(request.dropFirst(6).utf8))
            {
                answer("started check")
                crashIfAsked(candidate)
                violations = try Explorer.check(candidate, seed: seed, expects: !noExpects)
            } else {
                SessionSource.fail("explore-worker: unknown request \"\(request)\"")
            }
            answer("done " + String(decoding: try encoder.encode(violations), as: UTF8.self))
        }
    }
}
