import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK
@testable import Workbench

/// Each recorded event's kind from its producer to the views (issue 30):
/// kept in the recording (schema v9), typed by the one legacy reader in
/// older files, and what the timeline and the sequence view draw by,
/// whatever the event's text says.
@Suite struct EventKindTests {
    typealias Kind = RecordedEvent.Kind

    private static let kinds: [Kind] = [
        .state(client: "alice", change: "session → signedOut"),
        .request(name: "sendMessage", answer: .answerLost(cause: "net offline --in-flight")),
        .emission(watcher: "w1", fresh: true), .emission(watcher: "inbox", fresh: false), .watcherEnded(watcher: "w2"),
        .message(handle: "m1"), .provider, .call, .other,
    ]

    /// The recording's JSON is written by hand (no encoder on the hot
    /// path): byte for byte what the encoder writes, and read back.
    @Test func theHandWrittenJSONIsTheEncodersAndReadsBack() throws {
        for kind in Self.kinds {
            let encoded = try #require(TapeCoding.encode(kind))
            #expect(kind.json == String(decoding: encoded, as: UTF8.self))
            #expect(Kind(json: kind.json) == kind)
        }
        #expect(Kind(json: #"{"teleport":{}}"#) == nil)
    }

    /// How an app's call ended is a kind of its own, from the event's value
    /// (`AppEvent.returned`, `.threw`); a value says what an event is even
    /// when an earlier build stored another kind beside it (`other`, before
    /// calls had one); a field recording made before values is read by the
    /// LEGACY reader from its source (issue 30: a field replay compared
    /// `event.source != "call"`).
    @Test func aCallsEndIsACallByItsValue() throws {
        let returned = try #require(AppEvent.returned(call: "sendMessage", value: .message(id: "m-1", state: .toBeSent)).json)
        let threw = try #require(AppEvent.threw(call: "loadMore", code: "offline", message: "no network").json)
        let warning = try #require(AppEvent.warning(text: "call: it was a text").json)
        #expect(RecordedEvent(virtualTime: 0, source: "call", text: "call: sendMessage returned m-1", valueJSON: returned).kind == .call)
        #expect(RecordedEvent(virtualTime: 0, source: "call", text: "call: loadMore threw", valueJSON: threw).kind == .call)
        #expect(RecordedEvent(virtualTime: 0, source: "call", text: "call", valueJSON: returned, kind: .other).kind == .call)
        #expect(RecordedEvent(virtualTime: 0, source: "warning", text: "warning: call: it was a text", valueJSON: warning).kind == .other)
        #expect(RecordedEvent(virtualTime: 0, source: "call", text: "call: startConversation returned c-1").kind == .call)
    }

    /// The kind comes from the world's event, never from its line.
    @Test func eachWorldEventSaysWhatItIs() {
        #expect(
            WorldEvent.client("alice", .sessionChanged(.signedOut)).recordedKind
                == .state(client: "alice", change: "session → signedOut"))
        #expect(WorldEvent.client("wendy", .warning("alice emits (fresh → news")).recordedKind == .other)
        #expect(WorldEvent(.request(name: "sendMessage", answer: .ok)).recordedKind == .request(name: "sendMessage", answer: .ok))
        #expect(
            WorldEvent.emission(watcher: "inbox", fresh: false, refreshing: .refreshed, summary: "1 item: \"(fresh\"").recordedKind
                == .emission(watcher: "inbox", fresh: false))
        #expect(WorldEvent.messageState(message: "hello", state: .sent).recordedKind == .message(handle: "hello"))
        #expect(WorldEvent.trace(source: "provider", message: "asked").recordedKind == .provider)
        #expect(WorldEvent.trace(source: "delegate", message: "asked").recordedKind == .other)
    }

    /// A recorded session keeps each event's kind beside its text, and the
    /// views draw by it: an emission of a watcher named `feed` gets its
    /// diamond and its freshness, and a cached emission whose message reads
    /// `(fresh news) → later` stays cached.
    @Test func aRecordingKeepsEachKindAndTheViewsDrawByIt() throws {
        let folder = try TemporaryFolder()
        let (store, session) = try RecordingFixtures.record(
            ["user set alice", "start conversation", "send c1 text \"(fresh news) → later\"", "watch items c1", "feed = watch items c1"],
            in: folder)
        let kinds = try store.read { db in try String?.fetchAll(db, sql: "SELECT kind FROM event ORDER BY step, seq") }
        #expect(!kinds.isEmpty && kinds.allSatisfy { $0 != nil })
        let steps = try store.steps(of: session.id)
        let events = steps.flatMap(\.events)
        #expect(events.contains { $0.kind == .emission(watcher: "w1", fresh: false) && $0.text.contains("(fresh news) → later") })
        #expect(events.contains { $0.kind == .emission(watcher: "feed", fresh: true) })
        #expect(events.contains { if case .request(_, .ok) = $0.kind { $0.text.hasPrefix("net: ") } else { false } })

        let timeline = Timeline.draw(session, steps: steps)
        let feed = timeline.filter { $0.contains("feed emits") }
        #expect(!feed.isEmpty && feed.allSatisfy { $0.contains("◆ feed emits") })

        let items = SequenceView(session: session, steps: steps, traffic: []).bands.flatMap(\.items)
        let cached = items.filter { $0.label.hasPrefix("w1 emits (cached") }
        #expect(!cached.isEmpty && cached.allSatisfy { $0.kind == .cached })
        let fresh = items.filter { $0.label.hasPrefix("feed emits (fresh") }
        #expect(!fresh.isEmpty && fresh.allSatisfy { $0.kind == .fresh })
    }

    /// A file written before v9 has no kinds: its events are typed from
    /// their sources and texts by the legacy reader, as the views used to.
    @Test func aFileFromBeforeV9IsReadByTheLegacyReader() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("v8.sqlite").path
        let old: [(source: String, text: String, kind: String?)] = [
            ("alice.session", "alice.session → signedOut", nil), ("net:", "net: sendMessage → answer lost (a → b)", nil),
            ("w1", "w1 emits (cached, refreshing) 1 item: m1 agent \"(fresh\"", nil),
            ("w1", "w1 ended: userCleared — The user was cleared", nil), ("m1:", "m1: sent", nil),
            ("provider:", "provider: asked for tokens of alice (ok)", nil), ("delegate:", "delegate: asked", nil),
        ]
        try RecordingFixtures.file(at: path, schema: "v8", events: old)
        let store = try RecordingStore(path: path)
        #expect(
            try store.steps(of: 1)[0].events.map(\.kind) == [
                .state(client: "alice", change: "session → signedOut"), .request(name: "sendMessage", answer: .answerLost(cause: "a → b")),
                .emission(watcher: "w1", fresh: false), .watcherEnded(watcher: "w1"), .message(handle: "m1"), .provider, .other,
            ])
        // The field recording in examples/ (schema v4): its emissions are its watchers'.
        let (_, steps, _) = try FieldExportTests.load()
        let emissions = steps.flatMap(\.events).filter { $0.source.hasPrefix("w") }
        #expect(!emissions.isEmpty && emissions.allSatisfy(\.kind.isWatcher))
    }

    /// A field recording's events are typed from their values: a fresh
    /// emission is fresh (its text, `w1: …, fresh, refreshed`, never read),
    /// and its session's changes go on the client's lane.
    @Test func aFieldRecordingsEventsAreTypedByTheirValues() {
        let fresh = FieldTypedEventsTests.emission([("m-1", .sent)], fresh: true, .refreshed, source: "w1")
        #expect(fresh.kind == .emission(watcher: "w1", fresh: true))
        let session = FieldTypedEventsTests.recorded(.session(state: .signedOut))
        #expect(session.kind == .state(client: "client", change: "session signedOut"))
        #expect(FieldTypedEventsTests.recorded(.warning(text: "w1 emits (fresh")).kind == .other)
    }

    /// An event written as JSON before it had a kind reads back, typed as
    /// a row of that time is.
    @Test func anEventsJSONWithoutItsKindReadsBack() throws {
        let json = #"{"source":"w1","text":"w1 emits (fresh, refreshed) 0 items","virtualTime":5}"#
        let event = try JSONDecoder().decode(RecordedEvent.self, from: Data(json.utf8))
        #expect(event.kind == .emission(watcher: "w1", fresh: true))
        let again = try JSONDecoder().decode(RecordedEvent.self, from: JSONEncoder().encode(event))
        #expect(again == event)
    }
}
