import ChatSDK
import Testing

@testable import Workbench

/// A message's send state is ``SendState/Kind`` from a field recording to
/// the export's edge (issue 25): the timeline and the export decide on the
/// enum, also for the states earlier builds wrote as text, and write it
/// as text only in the transcript's lines.
@Suite struct FieldSendStateTests {
    static func recorded(_ json: String?, source: String, text: String) -> RecordedEvent {
        RecordedEvent(virtualTime: 2_000, source: source, text: text, valueJSON: json)
    }

    /// LEGACY: a file recorded before events had values kept a failed
    /// message's state in the text only, as `SendState` renders it
    /// (`m-1: failed(offline) "x"`): it is read as `.failed`.
    @Test func aFailedStateInALegacyTextIsFailed() {
        let event = Self.recorded(nil, source: "m-1:", text: #"m-1: failed(offline) "x""#)
        #expect(FieldEvent(event) == .message(id: "m-1", state: .failed))
        #expect(FieldEvent(Self.recorded(nil, source: "m-1:", text: #"m-1: sending "x""#)) == .message(id: "m-1", state: .sending))
        #expect(FieldEvent(Self.recorded(nil, source: "m-1:", text: "m-1: sent")) == .message(id: "m-1", state: .sent))
    }

    /// A text whose state is no kind is no message's state.
    @Test func aLegacyTextWhoseStateIsNoKindIsNotAState() {
        #expect(FieldEvent(Self.recorded(nil, source: "m-1:", text: #"m-1: lost "x""#)) == nil)
        #expect(FieldEvent(Self.recorded(nil, source: "m-1:", text: #"m-1: sent(offline) "x""#)) == nil)
    }

    /// LEGACY: the first v7 builds' value of a failed message,
    /// `"state":"failed(offline)"`, gives the timeline and the export the
    /// kind `failed`, which the workbench's `m1.state` can equal.
    @Test func aFailedStateWithItsCodeInALegacyValueIsExpectedAsFailed() {
        let json = #"{"message":{"content":{"text":{"text":"x"}},"id":"m-1","state":"failed(offline)"}}"#
        let event = Self.recorded(json, source: "m-1:", text: #"m-1: failed(offline) "x""#)
        #expect(FieldEvent(event) == .message(id: "m-1", state: .failed))
        var send = FieldExportTests.step(2, "sendMessage(.text(\"x\"), in: \"c-1\")", at: 2_000)
        send.events = [event]
        let steps = [FieldExportTests.step(1, "setCurrentUser(userId: \"alice\")", at: 1_000), send]
        #expect(FieldTimeline(steps: steps, traffic: []).states[2]?.map(\.state) == [.failed])
        #expect(FieldExport.stateSequences(send.events) == ["m-1": [.failed]])
    }

    /// The reader decides on the value's kind, whatever the text says.
    @Test func theReaderDecidesOnTheKindNotTheText() {
        let value = AppEvent.message(id: "m-1", state: .failed, error: "offline", content: .text("x"))
        let event = Self.recorded(value.json, source: "m-1:", text: #"m-1: sent "x""#)
        #expect(FieldEvent(event) == .message(id: "m-1", state: .failed))
        #expect(FieldExport.stateSequences([event]) == ["m-1": [.failed]])
    }
}
