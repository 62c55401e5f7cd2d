import ChatServer
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// The sequence view of a session recorded against a real server, on wall
/// time: its tape, its faults (the fault layer's rows) and the page of its
/// replay from the tape.
@Suite struct ServerSequenceViewTests {
    @Test func aServerSessionIsDrawnFromItsTapeAndFaults() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("sessions.sqlite").path
        let server = try await ServerModeTests.startServer()
        try await onThread { () throws in
            let session = try ServerModeTests.session(server.baseURL)
            let recorder = try Recorder(store: try RecordingStore(path: path), workbench: session, name: "faults", kind: .script)
            for line in [
                "user set alice", "start conversation", "send c1 text \"one\"", "agent say c1 \"hi\"", "net fail 1",
                "send c1 text \"lost\"", "net offline", "net online",
            ] {
                _ = recorder.execute(line)
            }
            recorder.finish()
        }.get()
        await server.stop()
        let store = try RecordingStore(path: path, create: false)
        let recorded = try store.session("faults")
        let view = SequenceView(session: recorded, steps: try store.steps(of: recorded.id), traffic: try store.traffic(of: recorded.id))
        #expect(view.clock == "wall time")
        #expect(view.lanes.map(\.title) == ["client", "network", "server", "other side"])
        let items = view.bands.flatMap(\.items)
        #expect(items.contains { $0.kind == .request && $0.label.hasPrefix("POST /v1/conversations/") && $0.answer == "ok sent" })
        #expect(items.contains { $0.kind == .call && $0.label.hasPrefix("agentSay(") && $0.answer == "ok" })
        // The lost request: a row of the fault layer, above the tape.
        let lost = view.bands[5].items.first { $0.kind == .lost }
        #expect(lost?.label == "sendMessage" && lost?.from == 0 && lost?.to == 1, "\(view.bands[5].items.map(\.label))")
        #expect(view.bands[4].items.map(\.label) == ["fail next 1"])
        #expect(view.offlineWindows.count == 1 && view.offlineWindows[0].to != nil)
        #expect(view.firstFailure == 6)
        // The tape replays with the fault rows skipped, and its page has the steps run.
        let outcome = try Replayer.replayTape(
            recorded, steps: try store.steps(of: recorded.id), traffic: try store.traffic(of: recorded.id))
        #expect(outcome.unusedTape.isEmpty && outcome.tapeDivergences.isEmpty, "\(outcome.unusedTape) \(outcome.tapeDivergences)")
        #expect(outcome.traffic.contains { $0.entry.origin == .network && $0.entry.summary == "offline" })
    }
}
