import ChatSDK
import Foundation
import Testing

@testable import Workbench

/// A field replay compares each subject's events in order (a message, a
/// watcher, the session, the calls…): whose an event is comes from its
/// value, not from its source text (issue 30); an event recorded without
/// a value (before v7) meets the same subject's events of the replay by
/// the one LEGACY reader of its source.
@Suite struct FieldSubjectTests {
    private func event(_ source: String, _ value: AppEvent?) -> RecordedEvent {
        RecordedEvent(virtualTime: 0, source: source, text: value?.text ?? source, valueJSON: value?.json)
    }

    @Test func eventsAreGroupedByWhoseTheyAreByValue() {
        let sent = AppEvent.message(id: "m-1", state: .sent, content: .text("hi"))
        let returned = AppEvent.returned(call: "sendMessage", value: .message(id: "m-1", state: .toBeSent))
        let emission = AppEvent.emission(
            watcher: 0, shown: .items(count: 0, hasMore: false, first: []), fresh: true, refreshing: .refreshed)
        let valued = [
            event("m-1:", sent), event("call", returned), event("w1", emission), event("client.session", .session(state: .signedOut)),
        ]
        // The same subjects, written before values were (v6 and older).
        let legacy = [event("m-1:", nil), event("call", nil), event("w1", nil), event("client.session", nil), event("someday", nil)]
        let step = { (events: [RecordedEvent]) in
            RecordedStep(
                number: 1, input: "x", output: "", status: .ok, virtualTime: 0, wallTime: Date(), wallMicroseconds: 0, events: events)
        }
        let byValue = Replayer.subjects([step(valued)])
        let byLegacy = Replayer.subjects([step(legacy)])
        let subjects: [FieldSubjectEvent.Subject] = [.value(.message(id: "m-1")), .value(.call), .value(.watcher(0)), .value(.session)]
        #expect(Set(byValue.keys) == Set(subjects))
        #expect(Set(byLegacy.keys) == Set(subjects + [.legacy(source: "someday")]))
        #expect(subjects.map(\.description) == ["m-1:", "call", "w1", "client.session"])
        // A source that reads like another subject's does not make the event that subject's: its value says whose it is.
        let misnamed = Replayer.subjects([step([event("client.session", sent)])])
        #expect(Array(misnamed.keys) == [.value(.message(id: "m-1"))])
    }
}
