import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import Testing

@testable import ChatSDK
@testable import Workbench

/// A request's answer on the network is a value from the fault layer that
/// saw it to the views (issue 30): recorded as such, drawn by it, shown as
/// its one rendering, and read from older files by the legacy reader only.
@Suite struct RequestAnswerTests {
    typealias Kind = RecordedEvent.Kind

    private static let answers: [RequestAnswer] = [
        .ok, .refused(code: .expiredToken), .refused(code: WireError.Code(rawValue: "ok")),
        .failed(kind: .timeout, cause: "net fail"), .failed(kind: .reset, cause: nil),
        .failed(kind: .reset, cause: "net offline --in-flight"), .answerLost(cause: "net drop --in-flight"), .unknownFailure,
    ]

    /// The kind's JSON, written by hand, is the encoder's with the answer
    /// as a value (not its text), and reads back as it was.
    @Test func eachAnswersJSONIsTheEncodersAndReadsBack() throws {
        for answer in Self.answers {
            let kind = Kind.request(name: "sendMessage", answer: answer)
            let encoded = try #require(TapeCoding.encode(kind))
            #expect(kind.json == String(decoding: encoded, as: UTF8.self))
            #expect(Kind(json: kind.json) == kind)
        }
        #expect(
            Kind.request(name: "sendMessage", answer: .failed(kind: .timeout, cause: "net fail")).json
                == #"{"request":{"answer":{"failed":{"cause":"net fail","kind":"timeout"}},"name":"sendMessage"}}"#)
        #expect(Kind.request(name: "refresh", answer: .ok).json == #"{"request":{"answer":{"ok":{}},"name":"refresh"}}"#)
    }

    /// What the fault layer saw, it says as a value: the server's refusal
    /// with its code, `net fail`'s kinds with their cause, the answer a
    /// server gave; the line shows the same words as before (examples/03,
    /// 37 and 39), and the sequence view draws each but `ok` as refused.
    @Test func aRequestsAnswerIsRecordedAsTheFaultLayerSawIt() throws {
        let folder = try TemporaryFolder()
        let (store, session) = try RecordingFixtures.record(
            [
                "user set alice", "start conversation", "send c1 text first", "token expire", "send c1 text second",
                "net fail 1 --kind timeout", "send c1 text third", "net fail 1 --kind refused", "send c1 text fourth",
            ], in: folder)
        let steps = try store.steps(of: session.id)
        let requests = steps.flatMap(\.events).compactMap { event -> (String, RequestAnswer, String)? in
            guard case .request(let name, let answer) = event.kind else { return nil }
            return (name, answer, event.text)
        }
        #expect(requests.allSatisfy { "net: \($0.0) → \($0.1.text)" == $0.2 })
        let sends = requests.filter { $0.0 == "sendMessage" }.map(\.1)
        #expect(
            sends == [
                .ok, .refused(code: .expiredToken), .ok, .ok, .failed(kind: .timeout, cause: "net fail"),
                .failed(kind: .refused, cause: "net fail"),
            ])
        #expect(sends.map(\.text) == ["ok", "expiredToken", "ok", "ok", "timeout (net fail)", "refused (net fail)"])
        #expect(requests.contains { $0.0 == "refresh" && $0.1 == .ok })

        let items = SequenceView(session: session, steps: steps, traffic: []).bands.flatMap(\.items).filter { $0.label == "sendMessage" }
        #expect(items.map(\.kind) == [.request, .refused, .request, .request, .refused, .refused])
        #expect(items.map(\.answer) == sends.map(\.text))
    }

    /// The sequence view and the timeline draw a request by its answer's
    /// value, not its text: a refusal whose code reads `ok` (a code this
    /// build does not know is kept as it came) is refused, though its line
    /// ends `→ ok` as an answered request's does.
    @Test func aRefusalIsDrawnRefusedWhateverItsCodeReads() {
        let t0 = Instant.simulationEpoch.milliseconds
        func event(_ ms: Int64, _ answer: RequestAnswer) -> RecordedEvent {
            RecordedEvent(
                virtualTime: t0 + ms, source: "net:", text: "net: sendMessage → \(answer.text)",
                kind: .request(name: "sendMessage", answer: answer))
        }
        let events = [event(10, .refused(code: WireError.Code(rawValue: "ok"))), event(20, .ok)]
        #expect(events[0].text == events[1].text)
        let session = RecordedSession(
            id: 1, uuid: "u", name: nil, created: Date(timeIntervalSince1970: 1_767_225_600), ended: Date(), toolVersion: "0.1.0",
            seed: 1, mode: .embedded, serverURL: nil, kind: .script, platform: "test", stepCount: 1, status: .ok)
        let step = RecordedStep(
            number: 1, input: "send c1 text \"hi\"", output: "", status: .ok, virtualTime: t0 + 20, wallTime: Date(),
            wallMicroseconds: 1, events: events)
        let items = SequenceView(session: session, steps: [step], traffic: []).bands.flatMap(\.items).filter { $0.label == "sendMessage" }
        #expect(items.map(\.kind) == [.refused, .request])
        #expect(items.map(\.answer) == ["ok", "ok"])
        #expect(events.map { Timeline.row(for: $0).hasSuffix("▶│ ok") } == [true, true])
    }

    /// Secrets in an answer's texts (a refusal's code as a server sent it,
    /// a cut's verb) are redacted in the kind as in the line (W6).
    @Test func anAnswersTextsAreRedacted() {
        let redact = { (text: String) in text.replacingOccurrences(of: "at_0123abcd", with: "<token#1>") }
        let kinds: [(Kind, Kind)] = [
            (
                .request(name: "sendMessage", answer: .refused(code: WireError.Code(rawValue: "bad at_0123abcd"))),
                .request(name: "sendMessage", answer: .refused(code: WireError.Code(rawValue: "bad <token#1>")))
            ),
            (
                .request(name: "sendMessage", answer: .answerLost(cause: "net drop at_0123abcd")),
                .request(name: "sendMessage", answer: .answerLost(cause: "net drop <token#1>"))
            ),
            (
                .request(name: "sendMessage", answer: .failed(kind: .reset, cause: "at_0123abcd")),
                .request(name: "sendMessage", answer: .failed(kind: .reset, cause: "<token#1>"))
            ),
            (.request(name: "at_0123abcd", answer: .ok), .request(name: "<token#1>", answer: .ok)),
        ]
        for (kind, redacted) in kinds {
            #expect(kind.redacted(redact) == redacted)
            #expect(!kind.redacted(redact).json.contains("at_0123abcd"))
        }
    }

    /// LEGACY: an answer's text as builds before typed answers wrote it
    /// reads back as the value that shows it again as it was written;
    /// only `ok` is answered.
    @Test func theLegacyReaderReadsEachAnswersText() {
        let read: [(String, RequestAnswer)] = [
            ("ok", .ok), ("expiredToken", .refused(code: .expiredToken)), ("unknownAttachment", .refused(code: .unknownAttachment)),
            ("refused (net fail)", .failed(kind: .refused, cause: "net fail")),
            ("reset (net offline)", .failed(kind: .reset, cause: "net offline")), ("reset", .failed(kind: .reset, cause: nil)),
            ("unavailable (net fail)", .failed(kind: .unavailable, cause: "net fail")),
            ("answer lost (net drop)", .answerLost(cause: "net drop")), ("answer lost (a → b)", .answerLost(cause: "a → b")),
            ("failed", .unknownFailure), ("something else (x)", .refused(code: WireError.Code(rawValue: "something else (x)"))),
        ]
        for (text, answer) in read {
            #expect(RequestAnswer(legacyText: text) == answer)
            #expect(RequestAnswer(legacyText: text).text == text)
        }
        #expect(read.filter { RequestAnswer(legacyText: $0.0).isOK }.map(\.0) == ["ok"])
    }

    /// A row of a v9 build from before answers were typed keeps its answer
    /// as text in its kind (`"answer":"reset (net fail)"`): this build does
    /// not read that kind, and the legacy reader types the row from its
    /// text instead; a row this build wrote is read by its kind alone.
    @Test func aV9RowWithATextAnswerIsReadByTheLegacyReader() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("v9.sqlite").path
        let rows: [(source: String, text: String, kind: String?)] = [
            ("net:", "net: sendMessage → reset (net fail)", #"{"request":{"answer":"reset (net fail)","name":"sendMessage"}}"#),
            ("net:", "net: refresh → ok", #"{"request":{"answer":"ok","name":"refresh"}}"#),
            ("net:", "net: sendMessage → expiredToken", #"{"request":{"answer":"expiredToken","name":"sendMessage"}}"#),
            // Written by this build: its text is not read.
            ("net:", "net: sendMessage → (not read)", Kind.request(name: "sendMessage", answer: .answerLost(cause: "net drop")).json),
        ]
        try RecordingFixtures.file(at: path, schema: "v9", events: rows)
        let store = try RecordingStore(path: path)
        #expect(
            try store.steps(of: 1)[0].events.map(\.kind) == [
                .request(name: "sendMessage", answer: .failed(kind: .reset, cause: "net fail")), .request(name: "refresh", answer: .ok),
                .request(name: "sendMessage", answer: .refused(code: .expiredToken)),
                .request(name: "sendMessage", answer: .answerLost(cause: "net drop")),
            ])
    }

    /// An event as JSON from a build before answers were typed (`sessions
    /// show --json`) reads back, typed from its text.
    @Test func anEventsJSONWithATextAnswerReadsBack() throws {
        let json = #"""
            {"kind":{"request":{"answer":"timeout (net fail)","name":"sendMessage"}},"source":"net:",
             "text":"net: sendMessage → timeout (net fail)","virtualTime":5}
            """#
        let event = try JSONDecoder().decode(RecordedEvent.self, from: Data(json.utf8))
        #expect(event.kind == .request(name: "sendMessage", answer: .failed(kind: .timeout, cause: "net fail")))
        let again = try JSONDecoder().decode(RecordedEvent.self, from: JSONEncoder().encode(event))
        #expect(again == event)
    }
}
