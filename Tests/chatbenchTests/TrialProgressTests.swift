import ChatTestSupport
import Foundation
import Testing

@testable import Workbench
@testable import chatbench

/// What a worker says while it runs a transcript's shrink trial is what
/// `shrink` reads of it: one value (``TrialProgress``) from the worker
/// that writes it to the parent that reads it.
@Suite struct TrialProgressTests {
    /// A worker that crashes in step 2 has said which step it was on and
    /// what the steps before it printed, as a run in this process prints
    /// them. Before, the worker wrote `output INDEX LINES` and `shrink`
    /// read the lines from after `output ` (the index first): none were
    /// read, and a crashed trial's steps printed nothing.
    @Test func aCrashedTrialsStepsAreReadAsTheWorkerPrintedThem() throws {
        let steps = ["user set alice", "start conversation", "app restart"].map {
            TranscriptShrinker.Step(input: $0, expected: [], compared: false)
        }
        let request = WorkerRequest.trial(steps: steps).json + "\n"
        let worker = try ChatbenchBinary.run(
            ["explore-worker"], input: request,
            environment: [ExploreWorkerCommand.crashVariable: "app restart", "SWIFT_BACKTRACE": "enable=no"])
        #expect(worker.status != 0, "\(worker.stdout)")
        var progress = TrialProgress.SoFar()
        for line in worker.stdout.split(separator: "\n") {
            if case .progress(let step)? = try WorkerAnswer.read(line) { progress.read(step) }
        }
        let here = try TranscriptShrinker.trial(Array(steps.prefix(2)), seed: 1)
        #expect(progress.step == 2, "\(worker.stdout)")
        #expect(progress.outputs == here.outputs, "\(worker.stdout)")
        #expect(progress.outputs.count == 2 && progress.outputs.allSatisfy { !$0.isEmpty })
    }

    /// Each value reads back from the answer that carries it.
    @Test func eachValueReadsBackFromItsLine() throws {
        let values: [TrialProgress] = [
            .willRun(step: 0), .ran(step: 3, output: ["ok: a \"quoted\" text", "  [00:00:00.044] w1 emits", ""]), .ran(step: 0, output: []),
        ]
        for value in values { #expect(try WorkerAnswer.read(Substring(WorkerAnswer.progress(value).line)) == .progress(value)) }
    }
}
