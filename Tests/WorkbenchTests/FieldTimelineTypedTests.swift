import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Testing

@testable import Workbench

/// The field timeline decides by values (issue 30): a lost answer by its
/// transport kind, what a call returned by the step's call; never by
/// comparing names the recorder wrote.
@Suite struct FieldTimelineTypedTests {
    /// The `net fail --kind` that reproduces each kind of lost answer.
    @Test func eachLostKindFailsTheNextRequestTheSameWay() {
        let expected: [(TransportError.Kind?, FailureKind)] = [
            (.refused, .refused), (.timeout, .timeout), (.unavailable, .unavailable), (.rateLimited, .unavailable),
            (.reset, .reset), (.failed, .reset), (TransportError.Kind(rawValue: "tooFast"), .reset), (nil, .reset),
        ]
        for (kind, fail) in expected { #expect(FieldTimeline.failKind(kind) == fail, "\(String(describing: kind))") }
    }

    /// A request lost on the way, then sent again, with the answer's kind.
    private func timeline(losing error: TransportError) -> FieldTimeline {
        let steps = [FieldExportTests.step(1, #"sendMessage(.text("hi"), in: "c-1")"#, at: 1000)]
        let traffic = [
            FieldExportTests.row(1, 1000, .http, .out, "POST /v1/conversations/c-1/messages", exchange: 1),
            FieldExportTests.row(
                2, 1100, .http, .in, "error failed", exchange: 1, body: TapeCoding.encode(TapeAnswer(error: error))),
            FieldExportTests.row(3, 3000, .http, .out, "POST /v1/conversations/c-1/messages", exchange: 2),
            FieldExportTests.row(4, 3100, .http, .in, "ok sent", exchange: 2),
        ]
        return FieldTimeline(steps: steps, traffic: traffic)
    }

    @Test func aRateLimitedAnswerIsA503AndTheDeviceSentItAgain() {
        let kinds = timeline(losing: TransportError(.rateLimited, "slow down")).actions.map(\.kind)
        #expect(kinds.contains(.fail(.unavailable)))
        #expect(kinds.contains(.settle))
        #expect(!kinds.contains(.offline))
    }

    @Test func anAnswerLostOfflineSendsTheNetworkOffline() {
        let kinds = timeline(losing: TransportError(.offline, "The device is offline")).actions.map(\.kind)
        #expect(kinds.contains(.offline))
        #expect(!kinds.contains { if case .fail = $0 { true } else { false } })
    }

    /// What a call returned is kept for the calls whose result later calls
    /// name (a message sent, a conversation started), by the step's call:
    /// an event's call name is not compared.
    @Test func whatACallReturnedIsReadByTheStepsCall() {
        let started = AppEvent.returned(call: "startConversation", value: .conversation(id: "c-1"))
        let sent = AppEvent.returned(call: "sendMessage", value: .message(id: "m-1", state: .toBeSent))
        let retried = AppEvent.returned(call: "retrySending", value: .message(id: "m-1", state: .toBeSent))
        var start = FieldExportTests.step(1, "startConversation(id: nil, title: nil)", at: 1000)
        start.events = [FieldTypedEventsTests.recorded(started, at: 1000)]
        var send = FieldExportTests.step(2, #"sendMessage(.text("hi"), in: "c-1")"#, at: 2000)
        send.events = [FieldTypedEventsTests.recorded(sent, at: 2000)]
        var retry = FieldExportTests.step(3, #"retrySending(itemId: "m-1")"#, at: 3000)
        retry.events = [FieldTypedEventsTests.recorded(retried, at: 3000)]
        // An event that says another call than its step's (a file written
        // by hand, or damaged): the step's call decides.
        let watch = FieldExportTests.step(
            4, #"watchItems(ofConversationWithId: "c-1")"#, at: 4000, [(4000, "call", "call: sendMessage returned m-9 toBeSent")])
        let timeline = FieldTimeline(steps: [start, send, retry, watch], traffic: [])
        #expect(timeline.returned == [1: "c-1", 2: "m-1"])
    }

    @Test func theCallsThatReturnWhatTheAppNames() {
        let returning: [FieldCall] = [
            .sendText("hi", conversation: "c-1"), .sendAttachment(kind: "image", mime: "image/png", bytes: 1, conversation: "c-1"),
            .startConversation(id: nil, title: nil), .startConversation(id: "c-1", title: "t"),
        ]
        let others: [FieldCall] = [.retry("m-1"), .watchItems("c-1"), .setCurrentUser("alice"), .unsupported("sendMessage")]
        #expect(returning.allSatisfy { $0.returnsWhatTheAppNames })
        #expect(!others.contains { $0.returnsWhatTheAppNames })
    }
}
