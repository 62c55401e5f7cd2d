import ChatCore
import ChatSDK
import ChatTestSupport
import Foundation
import Testing

@testable import Workbench

/// A field recording (an app's diagnostics file) as a transcript (issue 27
/// §4): how each recorded call reads, what the timeline infers from the
/// tape and the events, and the repository's recording exported and run.
@Suite struct FieldExportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/field/support-ticket.sqlite").path

    static func load(_ path: String = fixture) throws -> (RecordedSession, [RecordedStep], [RecordedTraffic]) {
        let store = try RecordingStore(path: path, create: false, bundle: true)
        let session = try store.bundledSession()
        return (session, try store.steps(of: session.id), try store.traffic(of: session.id))
    }

    // MARK: Calls

    @Test func eachLegacyRecordedCallReadsBack() {
        #expect(
            FieldCall(legacyText: "ChatClient(configuration: cacheMode: .memory, autoResend: false, pageSize: 30, content: .kept)")
                == .client(cacheMode: .memory, autoResend: false, pageSize: 30, redacted: false))
        #expect(FieldCall(legacyText: #"setCurrentUser(userId: "alice")"#) == .setCurrentUser("alice"))
        #expect(
            FieldCall(legacyText: #"startConversation(id: nil, title: "Knee pain")"#) == .startConversation(id: nil, title: "Knee pain"))
        #expect(FieldCall(legacyText: #"startConversation(id: "c-1", title: nil)"#) == .startConversation(id: "c-1", title: nil))
        // The recorder does not escape quotes: a text is all between the fixed parts.
        #expect(
            FieldCall(legacyText: #"sendMessage(.text("say "hi", then"), in: "c-1")"#) == .sendText(#"say "hi", then"#, conversation: "c-1")
        )
        #expect(
            FieldCall(legacyText: #"sendMessage(.attachment(.image, "image/png", 2048 bytes), in: "c-1")"#)
                == .sendAttachment(kind: "image", mime: "image/png", bytes: 2048, conversation: "c-1"))
        #expect(FieldCall(legacyText: #"watchItems(ofConversationWithId: "c-1")"#) == .watchItems("c-1"))
        #expect(FieldCall(legacyText: "w3.cancel()") == .cancel(watcher: "w3"))
        #expect(FieldCall(legacyText: "w1.loadMore()") == .loadMore(watcher: "w1"))
        #expect(FieldCall(legacyText: "networkReachabilityChanged(false)") == .reachability(false))
        #expect(FieldCall(legacyText: #"setIsTyping(true, in: "c-1")"#) == .typing(true, conversation: "c-1"))
        #expect(FieldCall(legacyText: "applicationDidEnterBackground()") == .background)
        #expect(FieldCall(legacyText: #"loginUser(jwt: "<jwt#1>")"#) == .unsupported("loginUser"))
        #expect(FieldCall(legacyText: "no call at all") == nil)
    }

    // MARK: The timeline

    static func step(_ number: Int, _ input: String, at time: Int64, _ events: [(Int64, String, String)] = []) -> RecordedStep {
        RecordedStep(
            number: number, input: input, output: "", status: .ok, virtualTime: time, wallTime: Date(), wallMicroseconds: 0,
            events: events.map { RecordedEvent(virtualTime: $0.0, source: $0.1, text: $0.2) })
    }

    static func row(
        _ seq: Int, _ time: Int64, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ summary: String,
        exchange: Int, body: Data? = nil
    ) -> RecordedTraffic {
        RecordedTraffic(
            seq: seq, step: nil, wallTime: Date(),
            entry: TrafficEntry(
                time: Instant(milliseconds: time), origin: .device("d"), channel: channel, direction: direction,
                kind: .described(summary, channel, direction, .device("d")), body: body,
                exchange: exchange))
    }

    @Test func theTimelineReadsTheNetworksFailuresAndTheOtherSide() throws {
        let steps = [
            Self.step(1, "ChatClient(configuration: cacheMode: .memory, autoResend: true, pageSize: 20, content: .kept)", at: 1000),
            Self.step(2, #"setCurrentUser(userId: "alice")"#, at: 1000),
            Self.step(3, #"startConversation(id: "c-1", title: nil)"#, at: 1000),
            Self.step(
                4, #"sendMessage(.text("hi"), in: "c-1")"#, at: 2000,
                [
                    (2000, "m-1:", #"m-1: toBeSent "hi""#), (2000, "call", "call: sendMessage returned m-1 toBeSent"),
                    (2000, "m-1:", #"m-1: sending "hi""#), (3000, "client.connection", "client.connection waitingForNetwork(offline)"),
                    (9000, "m-1:", #"m-1: sent "hi""#),
                ]),
        ]
        let agent = WireMessage(
            id: "msg-9", conversationId: "c-1", seq: 2, author: .provider(name: "agent"), content: .text("hello"), replyTo: nil,
            createdAt: Instant(milliseconds: 9500))
        let traffic = [
            Self.row(1, 2000, .http, .out, "POST /v1/conversations/c-1/messages", exchange: 1),
            Self.row(
                2, 2100, .http, .in, "error failed", exchange: 1,
                body: TapeCoding.encode(TapeAnswer(error: TransportError(.timeout, "no answer")))),
            Self.row(
                3, 2500, .ws, .in, "closed: connection dropped", exchange: 2,
                body: TapeCoding.encode(TapeClose(reason: "connection dropped"))),
            Self.row(4, 9000, .http, .out, "POST /v1/conversations/c-1/messages", exchange: 3),
            Self.row(5, 9400, .http, .out, "GET /v1/conversations/c-1/messages", exchange: 4),
            Self.row(
                6, 9600, .ws, .in, "event #3 messageCreated", exchange: 5,
                body: TapeCoding.encode(WireEvent(userSeq: 3, kind: .messageCreated(agent)))),
            Self.row(
                7, 9700, .http, .in, "ok messages", exchange: 4,
                body: TapeCoding.encode(TapeAnswer(.messages(WirePage(elements: [agent], nextCursor: nil))))),
        ]
        let timeline = FieldTimeline(steps: steps, traffic: traffic)
        #expect(timeline.start == 1000)
        let kinds = timeline.actions.map { "\($0.time) \($0.kind)" }
        #expect(
            kinds == [
                "0 call(Workbench.FieldCall.client(cacheMode: ChatSDK.ChatClient.CacheMode.memory, autoResend: true, pageSize: 20, "
                    + "redacted: false), step: 1)",
                "0 call(Workbench.FieldCall.setCurrentUser(\"alice\"), step: 2)",
                "0 call(Workbench.FieldCall.startConversation(id: Optional(\"c-1\"), title: nil), step: 3)",
                // The lost answer's request fails as the world's next one.
                "1000 fail(ChatSimulation.FailureKind.timeout)",
                "1000 call(Workbench.FieldCall.sendText(\"hi\", conversation: \"c-1\"), step: 4)",
                "1500 drop",
                "2000 offline",
                // The next request after the device went offline brings it back.
                "8000 online",
                // The device sent the lost request again: the world's retry comes no later.
                "8000 settle",
                // The agent's message, once (frame and answer), at its creation.
                "8500 agentSays(conversation: \"c-1\", text: \"hello\")",
            ])
        #expect(timeline.returned == [4: "m-1"])
        #expect(timeline.states[4]?.map { "\($0.id) \($0.state)" } == ["m-1 sent"])
        // Exchange 3 got no answer on the tape.
        #expect(
            timeline.notes == [
                "POST /v1/conversations/c-1/messages at 8s got no answer on the tape (the recording ends, or the app was killed, first): not exported"
            ])
    }

    // MARK: The repository's recording

    @Test func theRepositorysRecordingExportsToATranscriptThatPasses() throws {
        let (session, steps, traffic) = try Self.load()
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        #expect(export.notes == [])
        #expect(export.reproduced)
        let lines = export.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("# embedded-only: the device's times, replayed in the embedded world's virtual time"))
        for input in [
            "> client new app --cache memory", "> user set alice", #"> start conversation --id order-4711 --title "Order 4711""#,
            "> watch items c1", #"> send c1 text "Where is my order?""#, "> net drop", "> net offline", "> net online",
            #"> agent say c1 "It ships tomorrow.""#, "> expect m2.state == sent", "> app shutdown",
        ] {
            #expect(lines.contains(input), "\(input)")
        }
        // Run as `chatbench test` runs it.
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ticket.chat").path
        try Data(export.text.utf8).write(to: URL(fileURLWithPath: path))
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(result.failures.joined(separator: "\n"))")
    }

    /// The repository's recording, as if the device had seen its second
    /// message fail (the world sends it).
    static func loadWithTheSecondMessageFailed() throws -> (RecordedSession, [RecordedStep], [RecordedTraffic]) {
        var (session, steps, traffic) = try load()
        for index in steps.indices where steps[index].number == 6 {
            for event in steps[index].events.indices where steps[index].events[event].text.hasPrefix("m-ee42c90b: sent") {
                steps[index].events[event].text = #"m-ee42c90b: failed "Hello?""#
                steps[index].events[event].valueJSON = steps[index].events[event].valueJSON?
                    .replacingOccurrences(of: #""state":"sent""#, with: #""state":"failed""#)
            }
        }
        return (session, steps, traffic)
    }

    @Test func aStateTheWorldDoesNotReproduceIsSaidAtTheTop() throws {
        let (session, steps, traffic) = try Self.loadWithTheSecondMessageFailed()
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        #expect(!export.reproduced)
        #expect(export.notes.contains { $0.contains("toBeSent → sending → failed on the device") })
        #expect(export.text.contains("# differs: m2 (m-ee42c90b on the device)"))
        #expect(export.text.contains("> expect m2.state == failed"))
        // It fails like any script, and shrink takes it as it takes any.
        let transcript = try Transcript.parse(export.text, path: "ticket.chat")
        let inputs = transcript.blocks.map(\.input).filter { !$0.hasPrefix("#") }
        let shrunk = try #require(try Shrinker().shrink(inputs))
        #expect(shrunk.lines.last == "expect m2.state == failed")
        #expect(shrunk.lines.count < inputs.count / 2, "\(shrunk.lines)")
    }

    /// examples/65 is what `chatbench export` writes for the repository's
    /// recording (it runs with the other examples).
    @Test func examples65IsTheExportOfTheRepositorysRecording() throws {
        let (session, steps, traffic) = try Self.load()
        let export = try FieldExport.export(session, steps: steps, traffic: traffic, source: "examples/field/support-ticket.sqlite")
        let example = Self.fixture.replacingOccurrences(of: "field/support-ticket.sqlite", with: "65-field-ticket-as-a-test.chat")
        #expect(export.text == (try String(contentsOfFile: example, encoding: .utf8)))
    }

    @Test func redactedTextsAreSaidAtTheTop() throws {
        let steps = [
            Self.step(1, "ChatClient(configuration: cacheMode: .disk, autoResend: true, pageSize: 20, content: .redacted)", at: 0),
            Self.step(2, #"sendMessage(.text("<text 2 chars sha256:8f434346648f6b96>"), in: "c-1")"#, at: 0),
        ]
        let timeline = FieldTimeline(steps: steps, traffic: [])
        #expect(
            timeline.notes == [
                "the recording's message texts are redacted (content: .redacted): the transcript's messages carry their summaries"
            ])
        #expect(
            timeline.actions.map(\.kind).last == .call(.sendText("<text 2 chars sha256:8f434346648f6b96>", conversation: "c-1"), step: 2))
    }

    @Test func aWorkbenchSessionIsNotAFieldRecording() throws {
        var (session, steps, traffic) = try Self.load()
        session.mode = .embedded
        #expect(throws: RecordingError.self) { try FieldExport.export(session, steps: steps, traffic: traffic) }
    }
}
