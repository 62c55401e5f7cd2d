import ChatCore
import Foundation

extension Replayer {
    /// Replays a server-mode session from its traffic tape with no server
    /// (SPEC W7, `replay --tape`): each step starts at its recorded time,
    /// the SDK is answered from the tape, and each step's output is
    /// compared with the recorded step's by what their parts are
    /// (``ServerConformance``: event lines and times aside; ids, minted
    /// again, as they are). The outcome also lists where the SDK's
    /// requests differ from the tape.
    package static func replayTape(
        _ session: RecordedSession, steps recorded: [RecordedStep], traffic: [RecordedTraffic]
    ) throws(RecordingError) -> ReplayOutcome {
        guard session.mode == .server else {
            throw RecordingError(
                .unsupported,
                "session \(session.label) was recorded in the embedded world: it has no traffic tape; replay it without --tape")
        }
        let started = ContinuousClock.now
        let start = min(instant(session.created), traffic.map(\.entry.time).min() ?? instant(session.created))
        var options = WorkbenchOptions()
        options.seed = session.seed
        options.serverURL = session.serverURL
        options.tape = TapeSource(
            traffic: traffic, start: start,
            stepStarts: Dictionary(recorded.map { ($0.number, instant($0.wallTime)) }, uniquingKeysWith: { a, _ in a }),
            idTag: session.idTag)
        let workbench: WorkbenchSession
        do {
            workbench = try WorkbenchSession(options: options)
        } catch {
            throw RecordingError(.unsupported, "cannot start a replay from the tape: \(error)")
        }
        guard let stage = workbench.interpreter.world as? TapeStage else {
            throw RecordingError(.unsupported, "cannot start a replay from the tape")
        }
        var notes: [String] = []
        if session.toolVersion != WorkbenchVersion.current {
            notes.append("session \(session.label) was recorded with chatbench \(session.toolVersion); this is \(WorkbenchVersion.current)")
        }
        let matcher = TranscriptMatcher()
        var divergence: ReplayOutcome.Divergence?
        var replayed: [RecordedStep] = []
        var kept: [RecordedStep] = []
        for step in recorded {
            let input = workbench.reveal(step.input)
            if workbench.readsOtherRecordings(input) {
                kept.append(step)
                replayed.append(step)
                continue
            }
            stage.beginStep(step.number, at: instant(step.wallTime))
            let result = workbench.execute(input)
            let new = workbench.recordedStep(number: step.number, input: input, result: result, wallTime: step.wallTime)
            replayed.append(new)
            // The replay mints the recorded ids again: they compare as they are.
            var expected = ServerConformance.comparable(step.styledOutput)
            var actual = ServerConformance.comparable(new.styledOutput)
            if step.outputStyles == nil {
                // LEGACY: recorded without styles.
                expected = ServerConformance.comparable(legacyRecorded: TranscriptRunner.lines(of: step.output))
                actual = ServerConformance.comparable(legacyRecorded: TranscriptRunner.lines(of: new.output))
            }
            if !workbench.dependsOnTheMachine(input), !matcher.matches(expected: expected, actual: actual) {
                divergence = .init(
                    step: step.number, input: step.input, expected: step.output, actual: new.output,
                    diffLines: LineDiff.diff(expected: expected, actual: actual), hint: nil)
                break
            }
            if result.status == .quit { break }
        }
        notes += keptAsRecorded(kept)
        let elapsed = ContinuousClock.now - started
        var outcome = ReplayOutcome(
            session: session, stepsRun: replayed.count, divergence: divergence, changedSteps: divergence == nil ? 0 : 1, notes: notes,
            steps: replayed, virtualMilliseconds: max(0, stage.now.milliseconds - start.milliseconds),
            seconds: elapsed.timeInterval)
        outcome.tapeDivergences = stage.divergences.map(\.description)
        outcome.unusedTape = divergence == nil ? stage.unused : []
        // What the steps run crossed is the tape's (the replay answers from it).
        outcome.traffic = traffic.filter { ($0.step ?? 0) <= replayed.count }
        return outcome
    }

    static func instant(_ date: Date) -> Instant {
        Instant(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
