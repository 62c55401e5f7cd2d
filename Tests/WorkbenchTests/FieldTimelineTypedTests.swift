import ChatCore
import ChatSDK
import ChatSimulation
import Foundation
import Testing

@testable import Workbench

/// The field timeline decides by values (issue 30): a lost answer by its
/// transport kind; never by comparing names the recorder wrote.
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
}
