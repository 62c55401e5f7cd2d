import ChatCore
import ChatSDK
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// Every event a field recording's client told its app is kept as a value
/// (`event.value`, ChatSDK's `AppEvent`), and the replay and the export
/// decide by that value, never by the look of its text (issue 30 §1–§4).
@Suite struct FieldTypedEventsTests {
    /// An event as the recorder writes it: its source, text and value.
    static func recorded(_ event: AppEvent, at time: Int64 = 1, source: String? = nil, text: String? = nil) -> RecordedEvent {
        RecordedEvent(virtualTime: time, source: source ?? event.source, text: text ?? event.text, valueJSON: event.json)
    }

    @Test func aNewRecordingKeepsEachEventAsAValue() throws {
        let folder = try TemporaryFolder()
        let (_, steps, _) = try FieldExportTests.load(try FieldTypedCallsTests.record(into: folder))
        let events = steps.flatMap(\.events)
        let values = events.compactMap { $0.valueJSON.flatMap(AppEvent.init(json:)) }
        #expect(values.count == events.count, "\(events.filter { $0.valueJSON == nil }.map(\.text))")
        // Its text and source are the value's one rendering.
        #expect(values.map(\.text) == events.map(\.text))
        #expect(values.map(\.source) == events.map(\.source))
        #expect(values.contains { if case .session = $0 { true } else { false } })
        #expect(values.contains { if case .connection(.connected) = $0 { true } else { false } })
        #expect(values.contains { if case .emission(0, .items(1, false, _), true, .refreshed) = $0 { true } else { false } })
    }

    /// A recording as the previous build wrote it (schema v7): values keyed
    /// by position (`{"text":{"_0":"hi"}}`), and only calls' ends and
    /// messages' states with a value. It still replays identically and
    /// exports to a transcript that passes.
    @Test func aRecordingFromThePreviousBuildStillReplays() throws {
        let folder = try TemporaryFolder()
        let path = try FieldTypedCallsTests.record(into: folder)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: #"UPDATE step SET call = replace(call, '{"text":{"text":', '{"text":{"_0":')"#)
            try db.execute(sql: #"UPDATE event SET value = replace(value, '{"text":{"text":', '{"text":{"_0":')"#)
            try db.execute(
                sql: #"""
                    UPDATE event SET value = NULL
                    WHERE NOT (value LIKE '{"returned":%' OR value LIKE '{"threw":%' OR value LIKE '{"message":%')
                    """#)
        }
        try queue.close()
        let (session, steps, traffic) = try FieldExportTests.load(path)
        #expect(steps.contains { $0.callJSON?.contains(#""_0""#) == true })
        #expect(steps.flatMap(\.events).contains { $0.valueJSON?.contains(#""_0""#) == true })
        #expect(steps.allSatisfy { $0.callJSON.flatMap(AppCall.init(json:)) != nil })
        let outcome = try Replayer.replayField(session, steps: steps, traffic: traffic)
        #expect(outcome.divergence == nil, "\(outcome.divergence?.diff.joined(separator: "\n") ?? "")")
        #expect(outcome.identical)
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        #expect(export.reproduced, "\(export.notes)")
    }

    /// A message the device saw fail is expected `failed` in the export,
    /// the state's name, not its rendering with its error
    /// (`failed(offline)`).
    @Test func aFailedMessageIsExpectedByItsStatesName() throws {
        let sent = AppEvent.message(id: "m-1", state: .failed, error: "offline", content: .text("x"))
        #expect(FieldEvent(Self.recorded(sent)) == .message(id: "m-1", state: .failed))
        var send = FieldExportTests.step(2, "sendMessage(.text(\"x\"), in: \"c-1\")", at: 2_000)
        send.events = [Self.recorded(sent, at: 2_000)]
        let steps = [FieldExportTests.step(1, "setCurrentUser(userId: \"alice\")", at: 1_000), send]
        #expect(FieldTimeline(steps: steps, traffic: []).states[2]?.map(\.state) == [.failed])
    }

    // MARK: The replay (§2)

    static func step(_ number: Int, _ events: [RecordedEvent]) -> RecordedStep {
        RecordedStep(
            number: number, input: "call\(number)()", output: "", status: .ok, virtualTime: Int64(number), wallTime: Date(),
            wallMicroseconds: 0, events: events)
    }

    /// `w1: 1 item (ID STATE), FRESH, REFRESHING` as a value, under `source`.
    static func emission(_ items: [(String, SendState.Kind)], fresh: Bool, _ refreshing: AppEvent.Refreshing, source: String)
        -> RecordedEvent
    {
        let shown = AppEvent.Shown.items(count: items.count, hasMore: false, first: items.map { .init(id: $0.0, state: $0.1) })
        return recorded(.emission(watcher: 0, shown: shown, fresh: fresh, refreshing: refreshing), source: source)
    }

    /// A watcher is known by its events' values, whatever its name: its
    /// emissions are compared without their freshness, the device's among
    /// the replay's.
    @Test func theReplayKnowsAWatcherByItsValues() {
        for source in ["w1", "inbox"] {
            let replay = [
                Self.step(1, [Self.emission([], fresh: false, .refreshing, source: source)]),
                Self.step(
                    2,
                    [
                        Self.emission([("m-1", .sending)], fresh: true, .refreshed, source: source),
                        Self.emission([("m-1", .sent)], fresh: true, .refreshed, source: source),
                    ]),
            ]
            let device = [
                Self.step(1, []),
                Self.step(
                    2,
                    [
                        Self.emission([("m-1", .sending)], fresh: false, .refreshing, source: source),
                        Self.emission([("m-1", .sent)], fresh: true, .refreshed, source: source),
                    ]),
            ]
            #expect(Replayer.firstDivergence(device, replay) == nil, "\(source)")
            let other = [Self.step(1, []), Self.step(2, [Self.emission([("m-1", .failed)], fresh: false, .refreshing, source: source)])]
            let divergence = Replayer.firstDivergence(other, replay)
            // Named by its value (watcher 0 is w1), whatever its source says (issue 30).
            #expect(divergence?.hint == #"w1's event 1: "w1: 1 item (m-1 failed)" on the device, "w1: 0 items" in the replay"#)
        }
    }

    /// Events with values are compared by their values: a text changed by
    /// hand is no divergence, a value changed under the same text is.
    @Test func theReplayComparesEventsByTheirValues() {
        let sent = AppEvent.message(id: "m-1", state: .sent, content: .text("hi"))
        let device = [Self.step(1, [Self.recorded(sent, text: "changed by hand")])]
        #expect(Replayer.firstDivergence(device, [Self.step(1, [Self.recorded(sent)])]) == nil)
        let failed = AppEvent.message(id: "m-1", state: .failed, content: .text("hi"))
        #expect(Replayer.firstDivergence([Self.step(1, [Self.recorded(failed, text: sent.text)])], device)?.step == 1)
    }

    // MARK: The timeline (§3)

    /// The network goes offline where the connection's state says so, not
    /// where a text happens to end with its words.
    @Test func theTimelineGoesOfflineByTheConnectionsState() {
        let steps = [
            FieldExportTests.step(1, "setCurrentUser(userId: \"alice\")", at: 1_000),
            Self.step(2, [Self.recorded(.warning(text: "the link was waitingForNetwork(offline)"), at: 2_000)]),
            Self.step(3, [Self.recorded(.connection(state: .waitingForNetwork(reason: .offline)), at: 3_000, text: "changed by hand")]),
        ]
        let timeline = FieldTimeline(steps: steps, traffic: [])
        #expect(timeline.actions.filter { $0.kind == .offline }.map(\.time) == [2_000])
    }

    // MARK: The export (§4)

    /// A step says which handle it made and what states messages went
    /// through, as values: a message named otherwise than `m1` is read, and
    /// an inspection whose line looks like a message's state is not one.
    @Test func aStepSaysWhatItMadeAndItsMessagesStates() throws {
        let session = try WorkbenchSession(options: WorkbenchOptions())
        _ = session.execute("user set alice")
        #expect(session.execute("start conversation").made == "c1")
        #expect(session.execute("inbox = watch items c1").made == "inbox")
        let send = session.execute("mall = send c1 text \"hi\"")
        #expect(send.made == "mall")
        #expect(FieldExport.stateSequences(send.events) == ["mall": [.toBeSent, .sending, .sent]])
        let inspection = session.execute("mall")
        #expect(inspection.output.hasPrefix("mall: text message"), "\(inspection.output)")
        #expect(inspection.made == nil)
        #expect(FieldExport.stateSequences(inspection.events).isEmpty)
        #expect(session.execute("agent say c1 \"m1: sent\"").made == "m1")
        #expect(session.execute("clock advance 1s").made == nil)
    }
}
