import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// A replay sees its steps' traffic only when something reads it: the HTML
/// view of a divergence, `--update`, or a recording whose steps show a
/// placeholder, whose number may count secrets first seen in the traffic.
@Suite struct ReplayTrafficTests {
    private func recorded(_ lines: [String]) throws -> (RecordingStore, RecordedSession, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        var options = WorkbenchOptions()
        options.seed = 3
        let recorder = try Recorder(store: store, workbench: try WorkbenchSession(options: options), name: "r", kind: .script)
        for line in lines { _ = recorder.execute(line) }
        recorder.finish()
        return (store, try store.session("r"), folder)
    }

    private let lines = [
        "user set alice", "watch conversations", "start conversation", "send c1 text \"hi\"", "agent say c1 \"hello\"",
        "clock advance 1m",
    ]

    @Test func aReplayKeepsItsTrafficOnlyWhenAsked() throws {
        let (store, session, _folder) = try recorded(lines)
        _ = _folder
        let steps = try store.steps(of: session.id)
        #expect(!steps.contains(where: Replayer.holdsPlaceholder))
        let tape = try store.traffic(of: session.id)
        #expect(tape.count > 10)

        let plain = try Replayer.replay(session, steps: steps)
        #expect(plain.identical)
        #expect(plain.traffic.isEmpty)

        let kept = try Replayer.replay(session, steps: steps, keepTraffic: true)
        #expect(kept.identical)
        #expect(kept.traffic.map(\.entry.summary) == tape.map(\.entry.summary))
        #expect(kept.traffic.map(\.entry.body) == tape.map(\.entry.body))
        #expect(kept.traffic.map(\.step) == tape.map(\.step))

        let updated = try Replayer.replay(session, steps: steps, update: true)
        #expect(updated.traffic.count == tape.count)
    }

    /// The JWT the client logs in with crosses the wire before the one
    /// typed in: the recording calls that one `<jwt#2>`, its traffic the
    /// first `<jwt#1>`. A recording whose steps show a placeholder is
    /// replayed with its traffic redacted in the same order, so that the
    /// numbers agree.
    @Test func aRecordingShowingAPlaceholderIsReplayedWithItsTraffic() throws {
        let (store, session, _folder) = try recorded([
            "login jwt alice", "# pasted: \(sampleJWT)", "expect client.user == \"\(sampleJWT)\"", "clock advance 1s",
        ])
        _ = _folder
        let steps = try store.steps(of: session.id)
        #expect(steps[1].input == "# pasted: <jwt#2>")
        #expect(steps[2].output.contains("<jwt#2>"))
        #expect(Replayer.holdsPlaceholder(steps[1]) && Replayer.holdsPlaceholder(steps[2]))
        #expect(!Replayer.holdsPlaceholder(steps[3]))
        let tape = try store.traffic(of: session.id)
        #expect(tape.contains { $0.entry.body.map { String(decoding: $0, as: UTF8.self).contains("<jwt#1>") } ?? false })

        let outcome = try Replayer.replay(session, steps: steps)
        #expect(outcome.identical)
        #expect(outcome.traffic.map(\.entry.body) == tape.map(\.entry.body))
    }
}
