import ChatCore
import ChatSDK
import Foundation

extension WorkbenchSession {
    /// `text` as it may be written anywhere (history, recordings, exports,
    /// logs): secrets replaced by this session's stable placeholders (W6).
    /// The one redaction function: every writer goes through it.
    package func redact(_ text: String) -> String {
        redactor.redact(text)
    }

    /// `text` with the placeholders this session handed out replaced by
    /// their secrets again: how a replay feeds a recorded line.
    package func reveal(_ text: String) -> String {
        redactor.reveal(text)
    }

    /// A step as it is written: input, output and events redacted, in that
    /// order, so that placeholders are numbered the same way by the
    /// recorder, a replay and the transcript runner.
    package func recordedStep(
        number: Int, input: String, result: StepResult, wallTime: Date = Date(), wallMicroseconds: Int64 = 0
    ) -> RecordedStep {
        let input = redact(input)
        let output = redact(result.output)
        // Where the values minted in a server session are, after its styles.
        let minted = keepsMintedValues ? mintedValues.occurrences(in: output).map { StyledText.Span($0.range, .minted) } : []
        let styles = result.styledOutput.spans(carriedTo: output) + minted
        let events = result.events.map {
            RecordedEvent(
                virtualTime: $0.time.milliseconds, source: $0.source, text: redact($0.text), kind: $0.event.recordedKind.redacted(redact))
        }
        return RecordedStep(
            number: number, input: input, output: output, status: result.status,
            virtualTime: result.virtualTime.milliseconds, wallTime: wallTime, wallMicroseconds: wallMicroseconds,
            events: events, stoppedAfterTicks: result.stoppedAfterTicks, outputStyles: styles)
    }

    /// A step's traffic as it is written: each kind's texts and body (its JSON
    /// as UTF-8 text) redacted like the step's text, and after it, so that
    /// a secret the step printed and sent keeps one placeholder. A body
    /// that is not UTF-8 text is dropped rather than kept in clear.
    package func redacted(_ traffic: [TrafficEntry]) -> [TrafficEntry] {
        traffic.map { entry in
            var entry = entry
            entry.kind = entry.kind.redacted(redact)
            entry.body = entry.body.map(redactor.redact(body:))
            return entry
        }
    }

    /// Whether a transcript leaves a line's output uncompared: a verb that
    /// drives the recording itself (`sessions`, `record stop`), or one that
    /// reads a session of this session's database (`replay ID`, `export
    /// last OUT`): what it prints depends on the database, not on the
    /// world. `replay FILE` and `export FILE OUT` read a file the script
    /// names, and are compared.
    package func isRecordingCommand(_ line: String) -> Bool {
        guard let (spec, argument) = verb(of: line, ifItHolds: ["sessions", "record", "replay", "export"]) else { return false }
        if spec.readsOtherRecordings { return argument.map { !RecordingStore.looksLikeFile($0) } ?? false }
        return spec.readsThisSessionsDatabase
    }

    /// Whether a line reads another recording (`replay`, `export`,
    /// ``CommandSpec/readsOtherRecordings``): a replay keeps what it
    /// printed when recorded rather than run it again.
    package func readsOtherRecordings(_ line: String) -> Bool {
        verb(of: line, ifItHolds: ["replay", "export"])?.spec.readsOtherRecordings ?? false
    }

    /// The verb a line uses and its first argument, when the line holds
    /// one of `words` (cheap first: replays ask this of every step).
    private func verb(of line: String, ifItHolds words: [StaticString]) -> (spec: CommandSpec, argument: String?)? {
        guard words.contains(where: { line.containsASCII($0) }) else { return nil }
        guard let tokens = try? Tokenizer.tokenize(line), let (spec, used) = interpreter.table.match(tokens) else { return nil }
        return (spec, used < tokens.count ? tokens[used].text : nil)
    }

    /// Makes the next step stop where Ctrl-C stopped `step` when it was
    /// recorded (nil, or a step that was not interrupted: it runs to its end):
    /// after as many batches of jobs and wake-ups as it ran then (the units
    /// between which Ctrl-C is noticed), which gives the same point exactly.
    /// A recording made before those were counted gives the instant only:
    /// then what was due before it runs, and at it everything if the step
    /// shows an event at that instant, else the wake-up that moved the clock
    /// there, its work left for the next step (close, not always exact).
    /// Only the embedded world can stop so; a server session's clock is real.
    package func interrupt(like step: RecordedStep?) {
        guard let world = (interpreter.world as? EmbeddedStage)?.world else { return }
        world.removeInterruptionPoint()
        world.interruption.stop(atTick: nil)
        guard let step, step.status == .interrupted else { return }
        if let ticks = step.stoppedAfterTicks {
            world.interruption.stop(atTick: world.interruption.ticks + max(ticks, 1))
            return
        }
        let ranAtTheEnd = step.events.contains { $0.virtualTime == step.virtualTime }
        world.interrupt(at: Instant(milliseconds: step.virtualTime), firingAll: ranAtTheEnd)
    }

    /// Whether a line's output depends on the machine rather than the world
    /// (``CommandSpec/dependsOnTheMachine``): `history` as well as the
    /// recording verbs. Replays record it and do not compare it.
    package func dependsOnTheMachine(_ line: String) -> Bool {
        verb(of: line, ifItHolds: ["history", "sessions", "record", "replay", "export"])?.spec.dependsOnTheMachine ?? false
    }

    /// The virtual time the world started at.
    package var startTime: Instant { interpreter.start }
}
