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
}
