import ChatSDK
import ChatSimulation
import Foundation

/// Re-runs a recorded session in a fresh world with its seed and compares
/// each step's output with the recording (SPEC W7). Inputs are fed as
/// recorded (redacted): a placeholder for a secret the world produced again
/// is replaced by the new secret; outputs are compared redacted, so secrets
/// never matter. Wall times are never compared.
package enum Replayer {
    /// Replays `steps`. Stops at the first divergence unless `update` (then
    /// every step runs, and `steps` of the outcome is the new recording).
    /// The outcome's `traffic` is kept when `keepTraffic` (an HTML view of
    /// a divergence reads it).
    package static func replay(
        _ session: RecordedSession, steps recorded: [RecordedStep], update: Bool = false, keepTraffic: Bool = false
    ) throws(RecordingError) -> ReplayOutcome {
        guard session.mode == .embedded else {
            throw RecordingError(
                .unsupported,
                "session \(session.label) was recorded against a server\(session.serverURL.map { " (\($0))" } ?? ""): replay it from its traffic tape with --tape"
            )
        }
        let started = ContinuousClock.now
        var options = WorkbenchOptions()
        options.seed = session.seed
        // Its own: where an interrupted step stops must stop nothing else.
        options.interruption = Interruption()
        let workbench: WorkbenchSession
        do {
            workbench = try WorkbenchSession(options: options)
        } catch {
            throw RecordingError(.unsupported, "cannot start a world with seed \(session.seed): \(error)")
        }
        workbench.capturesTraffic = keepTraffic || update || recorded.contains(where: holdsPlaceholder)
        var notes: [String] = []
        if session.toolVersion != WorkbenchVersion.current {
            notes.append("session \(session.label) was recorded with chatbench \(session.toolVersion); this is \(WorkbenchVersion.current)")
        }
        var divergence: ReplayOutcome.Divergence?
        var changed = 0
        var replayed: [RecordedStep] = []
        var traffic: [RecordedTraffic] = []
        var kept: [RecordedStep] = []
        for step in recorded {
            let input = workbench.reveal(step.input)
            if let placeholder = unknownPlaceholder(in: input) {
                notes.append(
                    "step \(step.number) holds \(placeholder), a secret typed in by hand: recordings never keep it, so the replay feeds the placeholder"
                )
            }
            if workbench.readsOtherRecordings(input) {
                kept.append(step)
                replayed.append(step)
                continue
            }
            // A step Ctrl-C stopped stops where it stopped then, not at its end.
            workbench.interrupt(like: step)
            let result = workbench.execute(input)
            let new = workbench.recordedStep(number: step.number, input: input, result: result, wallTime: step.wallTime)
            replayed.append(new)
            traffic += RunCapture.rows(workbench.redacted(result.traffic), step: step.number, wallTime: step.wallTime, after: traffic.count)
            let compared = !workbench.dependsOnTheMachine(input)
            if !compared, new.output != step.output {
                notes.append("step \(step.number) (\(step.input)) depends on the machine, not the world: recorded, not compared")
            }
            if compared, new.output != step.output {
                changed += 1
                if divergence == nil {
                    let expected = TranscriptRunner.lines(of: step.output)
                    let actual = TranscriptRunner.lines(of: new.output)
                    var hint: String?
                    if result.scriptError == .unknownVerb, step.status != .scriptError {
                        hint =
                            "this chatbench (\(WorkbenchVersion.current)) does not know a verb the session used (recorded with \(session.toolVersion)): upgrade chatbench to replay it"
                    }
                    divergence = .init(
                        step: step.number, input: step.input, expected: step.output, actual: new.output,
                        diffLines: LineDiff.diff(expected: expected, actual: actual), hint: hint)
                }
                if !update { break }
            }
            if result.status == .quit { break }
        }
        notes += keptAsRecorded(kept)
        let elapsed = ContinuousClock.now - started
        let virtual = (replayed.last?.virtualTime ?? 0) - workbench.startTime.milliseconds
        var outcome = ReplayOutcome(
            session: session, stepsRun: replayed.count, divergence: divergence, changedSteps: changed, notes: notes,
            steps: replayed, virtualMilliseconds: max(0, virtual),
            seconds: elapsed.timeInterval)
        outcome.traffic = traffic
        return outcome
    }

    /// The note for the steps that read another recording (`replay`,
    /// `export`): a replay keeps what they printed, and does not run them again.
    static func keptAsRecorded(_ steps: [RecordedStep]) -> [String] {
        guard let first = steps.first else { return [] }
        let what =
            steps.count == 1
            ? "step \(first.number) (\(first.input)) reads another recording"
            : "steps \(steps.map { String($0.number) }.joined(separator: ", ")) (replay, export) read other recordings"
        return ["\(what), not the world: kept as recorded, not run again"]
    }

    /// Whether the recording of `step` shows a secret's placeholder. When
    /// none does, the replay need not see its traffic: placeholders are
    /// numbered by first sight, traffic included, so the traffic matters
    /// only to the numbers a step shows (and to the inputs revealed), and
    /// encoding every request, answer and frame to redact it was most of
    /// what a replay adds to a run (issue 17).
    static func holdsPlaceholder(_ step: RecordedStep) -> Bool {
        unknownPlaceholder(in: step.input) != nil || unknownPlaceholder(in: step.output) != nil
            || step.events.contains { unknownPlaceholder(in: $0.text) != nil }
    }

    /// `<secret#1>`-style placeholders still in a line.
    static func unknownPlaceholder(in line: String) -> String? {
        guard line.containsASCII("#") else { return nil }
        let pattern = /<(?:jwt|secret|token)#[0-9]+>/
        return line.firstMatch(of: pattern).map { String($0.output) }
    }
}
