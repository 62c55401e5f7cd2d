import ChatCore
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK
@testable import Workbench

/// Each traffic row's kind from its producer to its readers (issue 30): kept
/// in the recording (schema v8), typed by the legacy reader in older files,
/// and what the readers decide by, whatever its summary looks like.
@Suite struct TrafficKindRecordingTests {
    typealias Kind = TrafficEntry.Kind
    private let t0 = Instant.simulationEpoch

    private func entry(
        _ ms: Int64, _ origin: TrafficEntry.Origin, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction, _ kind: Kind
    ) -> TrafficEntry {
        TrafficEntry(time: t0 + .milliseconds(ms), origin: origin, channel: channel, direction: direction, kind: kind, exchange: 1)
    }

    private static let kinds: [(TrafficEntry.Channel, TrafficEntry.Direction, TrafficEntry.Origin, Kind)] = [
        (.http, .out, .device("d"), .request(method: "GET", path: "/v1/conversations/closed: x", query: ["limit": "20"])),
        (.http, .in, .device("d"), .answer(.rejected(code: "offline"))),
        (.ws, .out, .device("d"), .open(afterUserSeq: 4)),
        (.ws, .in, .device("d"), .refused(.cancelled)),
        (.ws, .in, .device("d"), .event(seq: 5, name: "messageCreated")),
        (.ws, .in, .device("d"), .closed(reason: "server said \"bye\"", by: .server)),
        (.ws, .out, .device("d"), .close),
        (.http, .out, .otherSide, .call(.init("agentSay", [.word("c-1"), .text("ok")]))),
        (.http, .in, .otherSide, .answer(.ok(response: nil))),
        (.http, .out, .network, .fault(.lost(request: "sendMessage", device: "x from y"))),
        (.http, .out, .network, .fault(.failNext(count: 2, kind: "timeout", device: nil))),
    ]

    /// A recording in `folder` of one step whose traffic is a row of each of ``kinds``: its store and session.
    private func recording(in folder: TemporaryFolder) throws -> (store: RecordingStore, session: Int64) {
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(
            store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), name: "kinds", kind: .script)
        let traffic = Self.kinds.enumerated().map { index, row in entry(Int64(index), row.2, row.0, row.1, row.3) }
        recorder.record("clock", StepResult(output: "", status: .ok, traffic: traffic))
        recorder.finish()
        return (store, recorder.session.id)
    }

    /// A recording keeps each row's kind (JSON, keys sorted) beside its
    /// summary, and gives the same kinds back.
    @Test func aRecordingKeepsEachKind() throws {
        let folder = try TemporaryFolder()
        let (store, session) = try recording(in: folder)
        let tape = try store.traffic(of: session)
        #expect(tape.map(\.entry.kind) == Self.kinds.map(\.3))
        let columns = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT kind, summary FROM traffic ORDER BY seq").map {
                ($0["kind"] as String, $0["summary"] as String)
            }
        }
        #expect(columns.map(\.0) == Self.kinds.map(\.3.json))
        #expect(columns.map(\.1) == Self.kinds.map(\.3.summary))
        #expect(columns[1] == (#"{"answer":{"answer":{"rejected":{"code":"offline"}}}}"#, "error offline"))
    }

    /// LEGACY: a v8 file whose kinds keep a case's one value under Swift's
    /// positional key (`{"answer":{"_0":…}}`, as builds wrote them before
    /// the keys were named) gives the same kinds back.
    @Test func kindsKeyedByPositionInAnOlderFileReadBack() throws {
        let folder = try TemporaryFolder()
        let (store, session) = try recording(in: folder)
        try store.write { db in
            for name in ["answer", "refused", "call", "fault"] {
                try db.execute(
                    sql: "UPDATE traffic SET kind = replace(kind, ?, ?)",
                    arguments: [#"{"\#(name)":{"\#(name)":"#, #"{"\#(name)":{"_0":"#])
            }
        }
        let positional = try store.read { db in try String.fetchAll(db, sql: "SELECT kind FROM traffic ORDER BY seq") }
        #expect(positional.filter { $0.contains(#""_0""#) }.count == 6)
        #expect(try store.traffic(of: session).map(\.entry.kind) == Self.kinds.map(\.3))
    }

    /// A file written before v8 has no kinds: its rows are typed from their
    /// summaries by the legacy reader (one it cannot type only shows).
    @Test func aFileFromBeforeV8IsReadByTheLegacyReader() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("v7.sqlite").path
        let old: [(channel: String, direction: String, summary: String, device: String)] = [
            ("http", "out", "GET /v1/conversations?limit=20", "d1"), ("http", "in", "error offline", "d1"),
            ("http", "out", "restart device-alice", "network"), ("ws", "in", "closed: connection dropped", "d1"),
            ("ws", "in", "a frame of long ago", "d1"),
        ]
        try RecordingFixtures.file(
            at: path, schema: "v7", mode: "embedded",
            traffic: old.map { ["channel": $0.channel, "direction": $0.direction, "summary": $0.summary, "device_id": $0.device] })
        let store = try RecordingStore(path: path)
        #expect(
            try store.traffic(of: 1).map(\.entry.kind) == [
                .request(method: "GET", path: "/v1/conversations", query: ["limit": "20"]), .answer(.offline),
                .fault(.restart(device: "device-alice")), .closed(reason: "connection dropped", by: .network),
                .untyped("a frame of long ago"),
            ])
        // The field recording in examples/ (schema v4) reads the same way.
        let (_, _, traffic) = try FieldExportTests.load()
        #expect(traffic.allSatisfy { if case .untyped = $0.entry.kind { false } else { true } })
        #expect(traffic.contains { $0.entry.kind == .closed(reason: "connection dropped", by: .network) })
    }

    // MARK: Readers decide by kind

    private func session() -> RecordedSession {
        RecordedSession(
            id: 3, uuid: "u", name: "demo", created: Date(timeIntervalSince1970: 1_767_225_600), ended: Date(),
            toolVersion: "0.1.0", seed: 1, mode: .embedded, serverURL: nil, kind: .script, platform: "test",
            stepCount: 1, status: .ok)
    }

    private func rows(_ entries: [TrafficEntry]) -> [RecordedTraffic] {
        entries.enumerated().map { RecordedTraffic(seq: $0.offset + 1, step: 1, wallTime: Date(), entry: $0.element) }
    }

    /// A server's refusal whose code reads like a lost request (`error
    /// offline`) is a refusal; a lost request's is lost.
    @Test func theSequenceViewTellsARefusalFromALostRequestByKind() {
        let step = RecordedStep(
            number: 1, input: "send c1 text hi", output: "", status: .ok, virtualTime: t0.milliseconds + 50, wallTime: Date(),
            wallMicroseconds: 1, events: [])
        let request = Kind.request(method: "POST", path: "/v1/conversations/c-1/messages", query: [:])
        let traffic = rows([
            entry(1, .device("device-alice"), .http, .out, request),
            entry(2, .device("device-alice"), .http, .in, .answer(.rejected(code: "offline"))),
            TrafficEntry(
                time: t0 + .milliseconds(3), origin: .device("device-alice"), channel: .http, direction: .out, kind: request, exchange: 2),
            TrafficEntry(
                time: t0 + .milliseconds(4), origin: .device("device-alice"), channel: .http, direction: .in, kind: .answer(.offline),
                exchange: 2),
            entry(5, .network, .http, .out, .fault(.lost(request: "sendMessage", device: "device-x from y"))),
        ])
        let view = SequenceView(session: session(), steps: [step], traffic: traffic)
        let items = view.bands[0].items
        #expect(items.map(\.kind) == [.refused, .lost, .lost])
        #expect(items.map(\.answer) == ["error offline", "error offline", "error failed"])
        // The network's row names the request its device lost.
        #expect(items[2].label == "sendMessage" && items[2].detail == "lost sendMessage from device-x from y: reset on the way (net fail)")
        // The text timeline draws the lost request, not the refusal (the `net:` event shows it).
        #expect(traffic.filter(Timeline.drawn).map(\.seq) == [4, 5])
    }

    /// A frame is what its kind says: a close's reason is its own, not
    /// the rest of its summary; an entry of another kind is no frame.
    @Test func theTapeDeliversFramesByKind() {
        let closed = entry(1, .device("d"), .ws, .in, .closed(reason: "event #5 x", by: .server))
        #expect(TapeTransport.signal(closed) == .closed(reason: "event #5 x", by: .server))
        #expect(TapeTransport.signal(entry(1, .device("d"), .ws, .in, .untyped("closed: old"))) == nil)
        #expect(TapeTransport.signal(entry(1, .device("d"), .ws, .in, .ready)) == nil)
    }
}
