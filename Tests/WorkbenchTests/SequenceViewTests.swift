import ChatCore
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// The HTML sequence view's layout, from hand-made records.
@Suite struct SequenceViewTests {
    private let t0 = Instant.simulationEpoch.milliseconds

    private func session(mode: SessionMode = .embedded, ended: Bool = true) -> RecordedSession {
        RecordedSession(
            id: 3, uuid: "u", name: "demo", created: Date(timeIntervalSince1970: 1_767_225_600), ended: ended ? Date() : nil,
            toolVersion: "0.1.0", seed: 1, mode: mode, serverURL: nil, kind: .script, platform: "test",
            stepCount: 3, status: .expectFailed)
    }

    private func step(_ number: Int, _ input: String, _ status: StepStatus = .ok, at ms: Int64, events: [(Int64, String)] = [])
        -> RecordedStep
    {
        RecordedStep(
            number: number, input: input, output: "out \(number)\n", status: status, virtualTime: t0 + ms,
            wallTime: Date(), wallMicroseconds: 1,
            events: events.map { RecordedEvent(virtualTime: t0 + $0.0, source: String($0.1.prefix { $0 != " " }), text: $0.1) })
    }

    private func row(
        _ seq: Int, step: Int, _ ms: Int64, _ origin: TrafficEntry.Origin, _ channel: TrafficEntry.Channel,
        _ direction: TrafficEntry.Direction, _ summary: String, exchange: Int? = nil, body: String? = nil
    ) -> RecordedTraffic {
        RecordedTraffic(
            seq: seq, step: step, wallTime: Date(),
            entry: TrafficEntry(
                time: Instant(milliseconds: t0 + ms), origin: origin, channel: channel, direction: direction,
                kind: .described(summary, channel, direction, origin),
                body: body.map { Data($0.utf8) }, exchange: exchange))
    }

    private var recorded: (RecordedSession, [RecordedStep], [RecordedTraffic]) {
        let steps = [
            step(
                1, "send c1 text \"hi\"", at: 50,
                events: [
                    (0, "client.session → authenticated(alice)"), (50, "m1: sent"),
                    (50, "net: sendMessage → ok"), (60, "w1 emits (fresh, refreshed) 1 item"),
                    (0, "provider: asked for tokens of alice (ok)"),
                ]),
            step(2, "net offline", at: 100, events: [(100, "w1 emits (cached, refreshing) 1 item")]),
            step(3, "expect <b>m2.state == sent</b>", .expectFailed, at: 300, events: [(300, "phone.session → signedOut")]),
        ]
        let traffic = [
            row(
                1, step: 1, 0, .device("device-alice"), .http, .out, "POST /v1/conversations/c-1/messages", exchange: 1,
                body: #"{"accessToken":"<token#1>"}"#),
            row(2, step: 1, 40, .device("device-alice"), .http, .in, "ok sent", exchange: 1),
            row(3, step: 1, 45, .device("device-alice"), .ws, .in, "event #5 messageCreated", exchange: 2),
            row(4, step: 1, 46, .otherSide, .http, .out, "agentSay(c-1, \"yo\")"),
            row(5, step: 1, 46, .otherSide, .http, .in, "ok"),
            row(6, step: 2, 100, .network, .http, .out, "offline"),
            row(7, step: 2, 100, .device("device-alice"), .ws, .in, "closed: network offline", exchange: 2),
            row(8, step: 3, 120, .device("device-alice"), .http, .out, "GET /v1/conversations", exchange: 3),
            row(9, step: 3, 120, .device("device-alice"), .http, .in, "error offline", exchange: 3),
            row(10, step: 3, 200, .network, .http, .out, "online"),
            row(11, step: 3, 210, .network, .http, .out, "restart device-alice"),
            row(12, step: 3, 220, .device("device-alice"), .ws, .in, "event #6 messageCreated", exchange: 4),
            row(13, step: 3, 230, .device("device-alice"), .ws, .in, "event #7 messageCreated", exchange: 4),
            row(14, step: 3, 240, .device("device-alice"), .ws, .in, "event #8 messageCreated", exchange: 4),
        ]
        return (session(), steps, traffic)
    }

    @Test func lanesAreTheClientsThenNetworkServerAndOtherSide() {
        let (session, steps, traffic) = recorded
        let view = SequenceView(session: session, steps: steps, traffic: traffic)
        // `device-alice` is no client's of the session (the client `client` is on `device-client`): a lane of its own, by its id.
        #expect(view.lanes.map(\.title) == ["client", "phone", "device-alice", "network", "server", "other side"])
        #expect(view.lanes.map(\.role) == [.client, .client, .client, .network, .server, .otherSide])
        #expect(view.clock == "virtual time")
        #expect(view.bands.map(\.number) == [1, 2, 3])
        #expect(view.bands.map(\.statusLabel) == ["ok", "ok", "failed expect"])
        #expect(view.firstFailure == 3)
    }

    /// A device's rows go to its client's lane by the id the client's name
    /// makes (`bob` is on `device-bob`), never by taking the id apart; an
    /// app's flight recording is one client, whatever its device is called
    /// (issue 30: its rows got a second lane, `alice-iphone`, cut from the
    /// id).
    @Test func aDevicesRowsGoToItsClientsLane() {
        let bob = [
            RecordedStep(
                number: 1, input: "send c1 text \"hi\"", output: "", status: .ok, virtualTime: t0 + 50, wallTime: Date(),
                wallMicroseconds: 1,
                events: [RecordedEvent(virtualTime: t0, source: "x", text: "x", kind: .state(client: "bob", change: "session → set"))])
        ]
        let traffic = [
            row(1, step: 1, 0, .device(ClientObject.deviceId(of: "bob")), .http, .out, "GET /v1/conversations", exchange: 1),
            row(2, step: 1, 10, .device(ClientObject.deviceId(of: "bob")), .http, .in, "ok", exchange: 1),
            row(3, step: 1, 20, .device(ClientObject.deviceId(of: "bob")), .ws, .in, "event #1 messageCreated", exchange: 2),
        ]
        let view = SequenceView(session: session(), steps: bob, traffic: traffic)
        #expect(view.lanes.map(\.title) == ["bob", "network", "server", "other side"])
        #expect(view.bands[0].items.first { $0.kind == .request }?.from == 0)

        var field = session(mode: .field)
        field.kind = .app
        let app = bob.map { step in
            var step = step
            step.events = [
                RecordedEvent(
                    virtualTime: t0, source: "client.session", text: "client.session userSet(alice)",
                    valueJSON: AppEvent.session(state: .userSet(userId: "alice")).json)
            ]
            return step
        }
        let device = traffic.map { row in
            var row = row
            row.entry.origin = .device("device-alice-iphone")
            return row
        }
        let fieldView = SequenceView(session: field, steps: app, traffic: device)
        #expect(fieldView.lanes.map(\.title) == ["client", "network", "server", "other side"])
        #expect(fieldView.bands[0].items.first { $0.kind == .request }?.from == 0)
        // The text timeline labels a device's rows by its client in a workbench session, by its id in a flight recording.
        let drawn = Timeline.draw(session(), steps: bob, traffic: traffic)
        #expect(drawn.last == "[00:00:00.020]  │◀┄┄┄┄ event #1 messageCreated ┄┄┄┄│ bob", "\(drawn)")
        #expect(Timeline.draw(field, steps: app, traffic: device).contains { $0.hasSuffix("▶│ device-alice-iphone") })
    }

    @Test func requestsCarryTheirAnswersAndFramesComeBack() {
        let (session, steps, traffic) = recorded
        let items = SequenceView(session: session, steps: steps, traffic: traffic).bands[0].items
        // The traffic replaces the `net:` event; events first at one moment.
        #expect(items.map(\.kind) == [.state, .provider, .request, .frame, .call, .message, .fresh])
        let request = items[2]
        #expect(request.label == "POST /v1/conversations/c-1/messages" && request.answer == "ok sent")
        #expect((request.from, request.to) == (2, 4))
        #expect(request.detail.contains("answer after 40 ms: ok sent") && request.detail.contains("<token#1>"))
        #expect((items[3].from, items[3].to) == (4, 2))
        #expect((items[4].from, items[4].to, items[4].answer) == (5, 4, "ok"))
        #expect((items[1].from, items[1].to) == (5, 5))
    }

    @Test func faultsAreMarked() {
        let (session, steps, traffic) = recorded
        let view = SequenceView(session: session, steps: steps, traffic: traffic)
        #expect(view.offlineWindows == [.init(from: t0 + 100, to: t0 + 200)])
        let third = view.bands[2].items
        let lost = third.first { $0.kind == .lost }
        #expect(lost?.label == "GET /v1/conversations" && lost?.to == 3 && lost?.offline == true && lost?.answer == "error offline")
        let restart = third.first { $0.kind == .restart }
        #expect(restart?.from == 2 && restart?.label == "app restart" && restart?.offline == false)
        // The frame cut by going offline comes from the network.
        #expect(view.bands[1].items.first { $0.kind == .frame }?.from == 3)
        // Three similar frames in a row: a run of 3.
        let frames = third.filter { $0.kind == .frame }
        #expect(frames.map(\.runLength) == [3, 0, 0] && frames.map(\.repeated) == [false, true, true])
        // The run's count is on the chip that `p::before` reads it from
        // (issue 30: the × showed no count).
        let html = SequenceHTML.render(view)
        #expect(html.contains(" data-run=\"3\">"), "\(html)")
        #expect(html.contains(".collapse .i p[data-run]::before{content:\"×\" attr(data-run)"))
        // A chip in one lane wraps rather than cutting its text.
        #expect(html.contains("white-space:normal;overflow-wrap:anywhere"))
    }

    /// Who ended a stream is the entry's, not its reason's text (issue 30):
    /// a server that says "network offline" is the server; a socket that
    /// failed is the network, whatever it said.
    @Test func whoEndedAStreamDecidesItsLaneNotItsReason() {
        let steps = [step(1, "net drop", at: 10)]
        func closed(_ seq: Int, _ reason: String, by: ClosedBy) -> RecordedTraffic {
            RecordedTraffic(
                seq: seq, step: 1, wallTime: Date(),
                entry: TrafficEntry(
                    time: Instant(milliseconds: t0 + 10), origin: .device("device-alice"), channel: .ws, direction: .in,
                    kind: .closed(reason: reason, by: by), body: nil, exchange: seq))
        }
        let traffic = [closed(1, "network offline", by: .server), closed(2, "the event stream failed: reset", by: .network)]
        let view = SequenceView(session: session(), steps: steps, traffic: traffic)
        let frames = view.bands[0].items.filter { $0.kind == .frame }
        let network = view.lanes.firstIndex { $0.role == .network }
        let server = view.lanes.firstIndex { $0.role == .server }
        #expect(frames.map(\.from) == [server, network])
    }

    /// The first failure is the first step that failed, ahead of an earlier
    /// refused request (often what a script sets out to show; issue 30).
    @Test func theFirstFailureIsAFailedStepBeforeARefusedRequest() {
        let steps = [
            step(1, "token expire", at: 10), step(2, "send c1 text hi", at: 100),
            step(3, "expect m1.state == sent", .expectFailed, at: 200),
        ]
        let traffic = [
            row(1, step: 2, 20, .device("device-client"), .http, .out, "POST /v1/messages", exchange: 1),
            row(2, step: 2, 40, .device("device-client"), .http, .in, "error expiredToken", exchange: 1),
        ]
        let view = SequenceView(session: session(), steps: steps, traffic: traffic)
        #expect(view.bands[1].items.contains { $0.isFailure })
        #expect(view.firstFailure == 3)
    }

    @Test func anAnswerThatCameWithTheNextStepIsItsRequests() {
        let steps = [step(1, "send c1 text \"hi\"", at: 10), step(2, "clock", at: 90)]
        let traffic = [
            row(1, step: 1, 5, .device("device-alice"), .http, .out, "POST /v1/conversations/c-1/messages", exchange: 7),
            row(2, step: 2, 60, .device("device-alice"), .ws, .in, "event #1 messageCreated", exchange: 2),
            row(3, step: 2, 80, .device("device-alice"), .http, .in, "error expiredToken", exchange: 7),
        ]
        let view = SequenceView(session: session(), steps: steps, traffic: traffic)
        #expect(view.bands[0].items.map(\.answer) == ["error expiredToken"])
        #expect(view.bands[0].items.map(\.kind) == [.refused])
        #expect(view.bands[0].items[0].detail.contains("answer after 75 ms: error expiredToken"))
        #expect(view.bands[1].items.map(\.label) == ["event #1 messageCreated"])
        #expect(view.firstFailure == 1)
    }

    @Test func aSessionWithoutTrafficDrawsItsNetEvents() {
        let (session, steps, _) = recorded
        let items = SequenceView(session: session, steps: steps, traffic: []).bands[0].items
        let request = items.first { $0.kind == .request }
        #expect(request?.label == "sendMessage" && request?.answer == "ok")
        #expect(
            SequenceView(session: session, steps: steps, traffic: []).lanes.map(\.title) == [
                "client", "phone", "network", "server", "other side",
            ])
    }

    @Test func theLastStepOfAnUnfinishedSessionIsInterrupted() {
        let (_, steps, traffic) = recorded
        let view = SequenceView(session: session(ended: false), steps: Array(steps.prefix(2)), traffic: traffic)
        #expect(view.bands.map(\.status) == [.ok, .interrupted])
        #expect(view.firstFailure == 2)
    }

    @Test func thePageHasOneBandPerStepAndEscapesEverything() {
        let (session, steps, traffic) = recorded
        let html = SequenceHTML.render(SequenceView(session: session, steps: steps, traffic: traffic))
        #expect(html.components(separatedBy: "<section class=\"step ").count - 1 == 3)
        #expect(html.contains("#3 expect &lt;b&gt;m2.state == sent&lt;/b&gt;"))
        #expect(!html.contains("<b>m2.state"))
        #expect(html.contains("send c1 text &quot;hi&quot;"))
        #expect(html.contains("<a id=\"first-failure\" href=\"#s3\">"))
        #expect(html.contains("class=\"offline-window\""))
        #expect(html.contains(".c2-4{grid-column:4/7;margin:0 calc(100% / 6)}"))
        // Self-contained: nothing fetched.
        for reference in ["src=", "href=\"http", "@import", "url("] { #expect(!html.contains(reference)) }
    }

    @Test func escaping() {
        #expect(MarkupText.escape("<a href=\"x\">Tom & 'Jerry'\u{7}</a>\n") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; 'Jerry'&lt;/a&gt;\n")
    }

    /// `show`, `--timeline` and `--traffic` count from one zero: in server
    /// mode the session's start, before its first traffic (the tape's
    /// listing started at its first entry, 77–86 ms off; issue 30).
    @Test func theTrafficListingCountsFromTheSessionsZero() {
        let session = RecordedSession(
            id: 3, uuid: "u", name: "demo", created: Date(timeIntervalSince1970: Double(t0) / 1000), ended: Date(),
            toolVersion: "0.1.0", seed: 1, mode: .server, serverURL: "http://127.0.0.1:1", kind: .script, platform: "test",
            stepCount: 1, status: .ok)
        let steps = [step(1, "send c1 text hi", at: 120, events: [(100, "m1: sending")])]
        let traffic = [row(1, step: 1, 86, .device("device-client"), .http, .out, "POST /v1/messages")]
        let listing = TrafficListing.lines(session, steps: steps, traffic: traffic)
        #expect(listing.last?.hasPrefix("[+00:00:00.086] step 1") == true, "\(listing)")
        #expect(TrafficListing.startTime(session, steps: steps, traffic: traffic) == t0)
    }
}
