import ChatSDK
import Foundation

/// Records a workbench session step by step (SPEC W5): each step, with its
/// events, is committed when it completes, so a killed process keeps every
/// completed step. Everything written goes through the session's redaction,
/// the traffic of server mode too (its tape, SPEC W5).
///
/// Like the session it records, a recorder is used from one thread.
package final class Recorder {
    package let store: RecordingStore
    /// The session row (its id and name).
    package private(set) var session: RecordedSession
    let workbench: WorkbenchSession
    private var stepNumber = 0
    /// How many traffic entries the session's tape holds: the next one's
    /// `seq` follows, without asking the database each step (the session is
    /// this recorder's: it began it, and nothing else writes its tape).
    private var tapeLength = 0
    /// Traffic of blank lines (not recorded as steps), carried by the next step.
    private var pendingTraffic: [TrafficEntry] = []
    /// False after `record stop`, `finish()` or a write failure.
    package private(set) var isRecording = true
    /// Called once when a step cannot be written; recording stops then and
    /// the session carries on.
    package var onFailure: ((RecordingError) -> Void)?

    /// Starts recording `workbench` into `store`.
    ///
    /// - Parameters:
    ///   - name: the session's name (`--name`).
    ///   - kind: how it is driven: at a terminal, or a script.
    package init(store: RecordingStore, workbench: WorkbenchSession, name: String? = nil, kind: SessionKind) throws(RecordingError) {
        self.store = store
        self.workbench = workbench
        var new = RecordingStore.NewSession(name: name, seed: workbench.options.seed, kind: kind)
        if let url = workbench.options.serverURL {
            new.mode = .server
            new.serverURL = url
            // The clock is real: the session starts when its clock's zero is.
            new.created = Date(timeIntervalSince1970: Double(workbench.startTime.milliseconds) / 1000)
            // What its client-side ids carry, as minted: what `replay --tape` mints again.
            new.idTag = workbench.interpreter.world.random.idTag
        }
        session = try store.begin(new)
        workbench.interpreter.recording = self
    }

    /// Executes a line in the session and records it.
    package func execute(_ line: String) -> StepResult {
        let started = Date()
        let clock = ContinuousClock.now
        let result = workbench.execute(line)
        let elapsed = ContinuousClock.now - clock
        record(
            line, result, startedAt: started,
            wallMicroseconds: elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
        return result
    }

    /// Records a step that has run. Blank lines are not recorded.
    package func record(_ line: String, _ result: StepResult, startedAt: Date = Date(), wallMicroseconds: Int64 = 0) {
        guard isRecording else { return }
        guard !line.allSatisfy(\.isWhitespace) else {
            pendingTraffic += result.traffic
            return
        }
        stepNumber += 1
        let step = workbench.recordedStep(
            number: stepNumber, input: line, result: result, wallTime: startedAt, wallMicroseconds: wallMicroseconds)
        // Redacted after the step's text: placeholders are numbered in that order.
        let traffic = workbench.redacted(pendingTraffic.isEmpty ? result.traffic : pendingTraffic + result.traffic)
        pendingTraffic = []
        do {
            try store.append(step, traffic: traffic, firstSeq: tapeLength + 1, to: session.id)
            tapeLength += traffic.count
        } catch {
            isRecording = false
            onFailure?(error)
        }
    }

    /// Marks the session as ended; later steps are not recorded.
    package func finish() {
        guard isRecording else { return }
        isRecording = false
        try? store.end(session.id)
    }
}

extension Recorder: RecordingControl {
    func stopRecording() -> String {
        guard isRecording else { return "not recording" }
        finish()
        return "recording of session \(session.label) stopped after \(stepNumber) step\(stepNumber == 1 ? "" : "s")"
    }

    var databasePath: String { store.path }

    var sessionInProgress: Int64? { isRecording ? session.id : nil }

    func listSessions() throws(RecordingError) -> [StyledText] {
        SessionListing.table(try store.sessions(), current: isRecording ? session.id : nil)
    }
}
