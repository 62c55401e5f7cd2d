import ChatCore
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// `chatbench replay FILE` on an app's field recording (issue 27 §3): a
/// fresh SDK client makes the recorded calls against the recorded wire on
/// the recorded clock; the repository's recording matches, and copies of it
/// changed where the SDK would now act differently diverge there.
@Suite struct FieldReplayTests {
    static func replay(_ path: String) throws -> ReplayOutcome {
        let (session, steps, traffic) = try FieldExportTests.load(path)
        return try Replayer.replayField(session, steps: steps, traffic: traffic)
    }

    /// A copy of the repository's recording changed by `sql`.
    static func tampered(_ sql: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent("tampered.sqlite").path
        try FileManager.default.copyItem(atPath: FieldExportTests.fixture, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return path
    }

    @Test func theRepositorysRecordingReplaysIdentically() throws {
        let outcome = try Self.replay(FieldExportTests.fixture)
        #expect(outcome.divergence == nil, "\(outcome.divergence?.diff.joined(separator: "\n") ?? "")")
        #expect(outcome.tapeDivergences == [])
        #expect(outcome.unusedTape == [])
        #expect(outcome.identical)
        #expect(outcome.stepsRun == 8)
        // The device's clock: 41.135 s from the first call to the last.
        #expect(outcome.virtualMilliseconds == 41_135)
        // The replay minted the device's ids again.
        #expect(outcome.steps[4].events.contains { $0.text == "call: sendMessage returned m-89025cc1 toBeSent" })
    }

    @Test func aStateTheDeviceSawOtherwiseIsTheDivergence() throws {
        let folder = try TemporaryFolder()
        let path = try Self.tampered(
            #"UPDATE event SET text = 'm-ee42c90b: failed "Hello?"', value = json_set(value, '$.message.state', 'failed') WHERE text = 'm-ee42c90b: sent "Hello?"'"#,
            in: folder)
        let outcome = try Self.replay(path)
        let divergence = try #require(outcome.divergence)
        #expect(divergence.step == 6)
        #expect(divergence.input == #"sendMessage(.text("Hello?"), in: "order-4711")"#)
        #expect(divergence.diff.contains(#"- m-ee42c90b: failed "Hello?""#))
        #expect(divergence.diff.contains(#"+ m-ee42c90b: sent "Hello?""#))
        #expect(!outcome.identical)
    }

    @Test func anAnswerTheServerGaveOtherwiseIsTheDivergence() throws {
        // On this tape the server refused the second send (a 403).
        let folder = try TemporaryFolder()
        let path = try Self.tampered(
            """
            UPDATE traffic SET summary = 'error forbidden',
                body = CAST('{"error":{"code":"forbidden","message":"not a member"}}' AS BLOB) WHERE seq = 8
            """, in: folder)
        let outcome = try Self.replay(path)
        let divergence = try #require(outcome.divergence)
        #expect(divergence.step == 6)
        #expect(divergence.diff.contains { $0.hasPrefix("+ m-ee42c90b: failed") })
    }

    @Test func aRequestTheSDKNoLongerMakesIsListed() throws {
        // The device's first send went to another conversation.
        let folder = try TemporaryFolder()
        let path = try Self.tampered(
            "UPDATE traffic SET body = CAST(replace(CAST(body AS TEXT), 'Where is my order?', 'Where is it?') AS BLOB) WHERE seq = 2",
            in: folder)
        let outcome = try Self.replay(path)
        #expect(outcome.tapeDivergences.count == 1)
        #expect(outcome.tapeDivergences.first?.contains("Where is my order?") == true)
        #expect(!outcome.identical)
    }

    /// A device's watcher may skip emissions (a late start, coalesced
    /// changes): the replay matches while the device's are among its own, in
    /// order, and both end alike.
    @Test func aWatcherOnTheDeviceMayShowLessButNotOtherwise() {
        func step(_ number: Int, _ texts: [String]) -> RecordedStep {
            RecordedStep(
                number: number, input: "call\(number)()", output: "", status: .ok, virtualTime: Int64(number), wallTime: Date(),
                wallMicroseconds: 0, events: texts.map { RecordedEvent(virtualTime: Int64(number), source: "w1", text: $0) })
        }
        let replay = [
            step(1, ["w1: 0 items, cached, refreshing", "w1: 1 item (m-1 toBeSent), fresh, refreshed"]),
            step(2, ["w1: 1 item (m-1 sending), fresh, refreshed", "w1: 1 item (m-1 sent), fresh, refreshed"]),
        ]
        let device = [step(1, []), step(2, ["w1: 1 item (m-1 sending), cached, refreshing", "w1: 1 item (m-1 sent), fresh, refreshed"])]
        #expect(Replayer.firstDivergence(device, replay) == nil)
        // Not among the replay's: the divergence, where the device showed it.
        let other = [step(1, []), step(2, ["w1: 1 item (m-1 failed), cached, refreshing", "w1: 1 item (m-1 sent), fresh, refreshed"])]
        let divergence = Replayer.firstDivergence(other, replay)
        #expect(divergence?.step == 2)
        #expect(divergence?.hint == #"w1's event 1: "w1: 1 item (m-1 failed)" on the device, "w1: 0 items" in the replay"#)
        // Ending otherwise.
        let short = [step(1, []), step(2, ["w1: 1 item (m-1 sending), cached, refreshing"])]
        #expect(Replayer.firstDivergence(short, replay)?.step == 2)
    }

    @Test func aWorkbenchSessionIsRefused() throws {
        var (session, steps, traffic) = try FieldExportTests.load()
        session.mode = .embedded
        #expect(throws: RecordingError.self) { try Replayer.replayField(session, steps: steps, traffic: traffic) }
    }
}
