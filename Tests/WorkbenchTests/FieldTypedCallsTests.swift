import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// A field recording made now keeps each call as a value (`step.call`,
/// ChatSDK's `AppCall`), and the replay and the export read that value
/// (issue 30): texts with quotes, parentheses and line breaks, which the
/// recorded text cannot carry back, replay and export as they were sent.
@Suite struct FieldTypedCallsTests {
    static let awkwardText = "say \"hi\"), in: \"c-9\")\nand (then) \"bye\""
    static let awkwardConversation = "order-(47\"11)"

    /// An app's session in the embedded world, with the flight recorder on:
    /// its diagnostics file, exported.
    static func record(into folder: TemporaryFolder) throws -> String {
        let world = try World(seed: 1)
        let app = FieldApp(world: world, deviceId: "device-typed", appName: "Typed 1.0", in: folder)
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        try app.call { try await client.startConversation(id: awkwardConversation, title: "A (\"quoted\") title") }
        let watcher = client.watchItems(ofConversationWithId: awkwardConversation)
        world.spawn { _ = try? await watcher.first { _ in false } }
        world.runUntilIdle()
        try app.call { try await client.sendMessage(.text(awkwardText), in: awkwardConversation) }
        world.advance(by: .seconds(2))
        try app.call { await client.shutdown() }
        return try app.export()
    }

    @Test func aNewRecordingKeepsEachCallAsAValue() throws {
        let folder = try TemporaryFolder()
        let (_, steps, _) = try FieldExportTests.load(try Self.record(into: folder))
        #expect(steps.allSatisfy { $0.callJSON != nil })
        let calls = steps.compactMap { $0.callJSON.flatMap(AppCall.init(json:)) }
        #expect(calls.count == steps.count)
        // The text for people is the value's one rendering.
        #expect(calls.map(\.text) == steps.map(\.input))
        #expect(calls.contains(.sendMessage(content: .text(Self.awkwardText), replyingTo: nil, conversation: Self.awkwardConversation)))
        #expect(
            steps.compactMap(FieldCall.init).contains(.sendText(Self.awkwardText, conversation: Self.awkwardConversation)))
    }

    /// What a call returned and a message's states are read from their
    /// values: a text changed by hand does not change them.
    @Test func theTimelineReadsEventsFromTheirValues() throws {
        let folder = try TemporaryFolder()
        let (_, recorded, traffic) = try FieldExportTests.load(try Self.record(into: folder))
        let send = try #require(recorded.first { $0.input.hasPrefix("sendMessage(") })
        let events = send.events.compactMap { FieldEvent($0) }
        #expect(events.contains { if case .returned("sendMessage", _) = $0 { true } else { false } })
        #expect(events.contains { if case .message(_, .sent) = $0 { true } else { false } }, "\(send.events)")
        let timeline = FieldTimeline(steps: recorded, traffic: traffic)
        var steps = recorded
        for index in steps.indices {
            for event in steps[index].events.indices where steps[index].events[event].valueJSON != nil {
                steps[index].events[event].text = "changed by hand"
            }
        }
        let again = FieldTimeline(steps: steps, traffic: traffic)
        #expect(again.returned == timeline.returned && !timeline.returned.isEmpty)
        #expect(
            again.states.mapValues { $0.map { "\($0.id) \($0.state)" } } == timeline.states.mapValues { $0.map { "\($0.id) \($0.state)" } })
        #expect(timeline.states[send.number]?.isEmpty == false)
    }

    /// What the text alone gave: a send whose text has a line break, in a
    /// conversation whose id has a quote, cannot be read back from it.
    @Test func theTextAloneCouldNotBeReadBack() throws {
        let folder = try TemporaryFolder()
        let (session, steps, traffic) = try FieldExportTests.load(try Self.record(into: folder))
        let send = try #require(steps.first { $0.input.hasPrefix("sendMessage(") })
        #expect(FieldCall(legacyText: send.input) == nil)
        // Read from its text alone, as before the values, the replay misses the send.
        let textOnly = steps.map { step in
            var step = step
            step.callJSON = nil
            return step
        }
        let outcome = try Replayer.replayField(session, steps: textOnly, traffic: traffic)
        #expect(outcome.divergence?.step == send.number, "\(outcome.divergence?.hint ?? "none")")
        #expect(try Replayer.replayField(session, steps: steps, traffic: traffic).divergence == nil)
        let start = try #require(steps.first { $0.input.hasPrefix("startConversation(") })
        #expect(FieldCall(start) == .startConversation(id: Self.awkwardConversation, title: "A (\"quoted\") title"))
    }

    @Test func aNewRecordingReplaysIdentically() throws {
        let folder = try TemporaryFolder()
        let outcome = try FieldReplayTests.replay(try Self.record(into: folder))
        #expect(outcome.divergence == nil, "\(outcome.divergence?.diff.joined(separator: "\n") ?? "")")
        #expect(outcome.notes == [])
        #expect(outcome.tapeDivergences == [])
        #expect(outcome.identical)
        #expect(outcome.steps.contains { $0.callJSON.flatMap(AppCall.init(json:))?.name == "sendMessage" })
    }

    @Test func aNewRecordingExportsToATranscriptThatPasses() throws {
        let folder = try TemporaryFolder()
        let (session, steps, traffic) = try FieldExportTests.load(try Self.record(into: folder))
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        #expect(export.notes == [])
        #expect(export.reproduced)
        let lines = export.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("> send c1 text \(Format.quoted(Self.awkwardText))"), "\(export.text)")
        let path = folder.url.appendingPathComponent("typed.chat").path
        try Data(export.text.utf8).write(to: URL(fileURLWithPath: path))
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(result.failures.joined(separator: "\n"))")
    }

    /// A field recording of schema v4, made before `step.call` and
    /// `event.value` (the repository's recording as it was until issue 31
    /// moved the world's jitter to streams of its own), kept as it was.
    static let legacyFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/support-ticket-v4.sqlite").path

    /// A recording made before `step.call` is read from its text, in a
    /// migrated copy, and the file stays as it was.
    @Test func aRecordingMadeBeforeTheValuesIsReadFromItsText() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.legacyFixture))
        let (_, steps, _) = try FieldExportTests.load(Self.legacyFixture)
        #expect(steps.allSatisfy { $0.callJSON == nil && $0.events.allSatisfy { $0.valueJSON == nil } })
        #expect(steps.flatMap(\.events).contains { FieldEvent($0) == .returned(call: "sendMessage", id: "m-89025cc1") })
        #expect(steps.compactMap(FieldCall.init).count == steps.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.legacyFixture)) == before)
    }

    /// Two calls whose texts are one (a quote in a text) are told apart by their values.
    @Test func theReplayComparesCallsByTheirValues() {
        var device = FieldExportTests.step(1, #"sendMessage(.text("a"), in: "b"), in: "c")"#, at: 0)
        var replay = device
        device.callJSON = AppCall.sendMessage(content: .text(#"a"), in: "b"#), replyingTo: nil, conversation: "c").json
        replay.callJSON = AppCall.sendMessage(content: .text("a"), replyingTo: nil, conversation: #"b"), in: "c"#).json
        #expect(AppCall(json: device.callJSON!)?.text == AppCall(json: replay.callJSON!)?.text)
        #expect(Replayer.firstDivergence([device], [replay])?.step == 1)
        #expect(Replayer.firstDivergence([device], [device]) == nil)
    }

    /// A call a newer SDK records and this version does not know is named, not made.
    @Test func anUnknownCallIsNamed() {
        var step = FieldExportTests.step(2, "frobnicate(\"x\")", at: 0)
        step.callJSON = #"{"frobnicate":{"x":"y"}}"#
        #expect(FieldCall(step) == .unsupported("frobnicate"))
        step.callJSON = "not json"
        #expect(FieldCall(step) == nil)
    }
}
