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
        let events = result.events.map {
            RecordedEvent(virtualTime: $0.time.milliseconds, source: $0.source, text: redact($0.text))
        }
        return RecordedStep(
            number: number, input: input, output: output, status: result.status.recordedName,
            virtualTime: result.virtualTime.milliseconds, wallTime: wallTime, wallMicroseconds: wallMicroseconds,
            events: events)
    }

    /// A step's traffic as it is written: each summary and body (its JSON
    /// as UTF-8 text) redacted like the step's text, and after it, so that
    /// a secret the step printed and sent keeps one placeholder. A body
    /// that is not UTF-8 text is dropped rather than kept in clear.
    package func redacted(_ traffic: [TrafficEntry]) -> [TrafficEntry] {
        traffic.map { entry in
            var entry = entry
            entry.summary = redact(entry.summary)
            entry.body = entry.body.map(redactor.redact(body:))
            return entry
        }
    }

    /// Whether a line drives the recording itself (`sessions`, `record
    /// stop`): what it prints depends on the database, not on the world,
    /// so replays and transcripts do not compare it.
    package func isRecordingCommand(_ line: String) -> Bool {
        // Cheap first: replays ask this of every step.
        guard line.containsASCII("sessions") || line.containsASCII("record") else { return false }
        guard let tokens = try? Tokenizer.tokenize(line), let (spec, _) = interpreter.table.match(tokens) else { return false }
        return spec.readsThisSessionsDatabase
    }

    /// Whether a line's output depends on the machine rather than the world
    /// (``CommandSpec/dependsOnTheMachine``): `history` as well as the
    /// recording verbs. Replays record it and do not compare it.
    package func dependsOnTheMachine(_ line: String) -> Bool {
        guard line.containsASCII("history") || line.containsASCII("sessions") || line.containsASCII("record") else { return false }
        guard let tokens = try? Tokenizer.tokenize(line), let (spec, _) = interpreter.table.match(tokens) else { return false }
        return spec.dependsOnTheMachine
    }

    /// The virtual time the world started at.
    package var startTime: Instant { interpreter.start }
}
