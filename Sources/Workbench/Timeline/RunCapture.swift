import ChatSDK
import Foundation

/// What a run that is not recorded (`test`, `replay`) did, kept as a
/// recording would keep it (redacted steps, events and traffic rows), so
/// that its HTML sequence view can be drawn when it fails
/// (`--html-on-failure DIR`).
package final class RunCapture {
    let workbench: WorkbenchSession
    private(set) var steps: [RecordedStep] = []
    private(set) var traffic: [RecordedTraffic] = []
    private let started = Date()

    package init(workbench: WorkbenchSession) {
        self.workbench = workbench
    }

    /// Keeps one step (blank lines are not kept, as in a recording; their
    /// traffic goes with the next step).
    package func add(_ input: String, _ result: StepResult, wallTime: Date = Date()) {
        let blank = input.trimmingCharacters(in: .whitespaces).isEmpty
        let number = steps.count + 1
        traffic += Self.rows(workbench.redacted(result.traffic), step: number, wallTime: wallTime, after: traffic.count)
        if !blank { steps.append(workbench.recordedStep(number: number, input: input, result: result, wallTime: wallTime)) }
    }

    /// Traffic entries (redacted) as the rows of step `step`, numbered after `after` rows.
    static func rows(_ entries: [TrafficEntry], step: Int, wallTime: Date, after: Int) -> [RecordedTraffic] {
        entries.enumerated().map { RecordedTraffic(seq: after + $0.offset + 1, step: step, wallTime: wallTime, entry: $0.element) }
    }

    /// The run's page, titled `name` and `kind` (`test`, `replay`).
    package func html(name: String, kind: SessionKind) -> String {
        let options = workbench.options
        let statuses = Set(steps.map(\.status))
        let worst: StepStatus = statuses.contains(.scriptError) ? .scriptError : (statuses.contains(.expectFailed) ? .expectFailed : .ok)
        let session = RecordedSession(
            id: 0, uuid: UUID().uuidString, name: name, created: started, ended: Date(), toolVersion: WorkbenchVersion.current,
            seed: options.seed, mode: options.serverURL == nil ? .embedded : .server, serverURL: options.serverURL, kind: kind,
            platform: "", stepCount: steps.count, status: worst)
        return SequenceHTML.render(SequenceView(session: session, steps: steps, traffic: traffic))
    }
}
