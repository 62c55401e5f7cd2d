import ChatCore
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK
@testable import Workbench

/// Whose each traffic row is, from its producer to its readers (issue 30):
/// kept in the recording (`traffic.origin`, schema v12) beside the label
/// in `device_id`, and read by the legacy reader from `device_id` in older
/// files.
@Suite struct TrafficOriginRecordingTests {
    private let t0 = Instant.simulationEpoch

    private static let origins: [TrafficEntry.Origin] = [
        .device("alice-device"), .network, .otherSide, .device("network"), .device("app-backend"), .device(""),
    ]

    /// A recording keeps each origin and gives it back; `device_id` keeps
    /// its label, as before v12.
    @Test func eachOriginRoundTripsThroughTheStore() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(
            store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), name: "origins", kind: .script)
        let traffic = Self.origins.enumerated().map { index, origin in
            TrafficEntry(
                time: t0 + .milliseconds(Int64(index)), origin: origin, channel: .http, direction: .out,
                kind: origin == .network ? .fault(.offline(device: nil)) : .request(method: "GET", path: "/v1/limits", query: [:]),
                exchange: origin == .network ? nil : index)
        }
        recorder.record("clock", StepResult(output: "", status: .ok, traffic: traffic))
        recorder.finish()
        #expect(try store.traffic(of: recorder.session.id).map(\.entry.origin) == Self.origins)
        let columns = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT origin, device_id FROM traffic ORDER BY seq").map {
                "\($0["origin"] as String) \($0["device_id"] as String)"
            }
        }
        #expect(
            columns == [
                "device alice-device", "network network", "other-side app-backend", "device network", "device app-backend", "device ",
            ])
    }

    /// The flight recorder writes its device's rows as the device's, whatever it is called.
    @Test func theFlightRecorderWritesItsDevicesOrigin() throws {
        let folder = try TemporaryFolder()
        let (_, _, traffic) = try FieldDeviceNamedLikeAnOriginTests.record(deviceId: "network", into: folder)
        #expect(!traffic.isEmpty)
        #expect(traffic.allSatisfy { $0.entry.origin == .device("network") })
        let columns = try DatabaseQueue(path: folder.url.appendingPathComponent("export.sqlite").path).read { db in
            try Row.fetchAll(db, sql: "SELECT DISTINCT origin, device_id FROM traffic").map {
                "\($0["origin"] as String) \($0["device_id"] as String)"
            }
        }
        #expect(columns == ["device network"])
    }

    /// A file written before v12 (here a v11 one) has no origins: its rows
    /// are read by the legacy reader from their device ids, as before:
    /// `network` the network, `app-backend` the other side.
    @Test func aFileFromBeforeV12IsReadByTheLegacyReader() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("v11.sqlite").path
        let old: [(device: String, kind: TrafficEntry.Kind)] = [
            ("d1", .request(method: "GET", path: "/v1/conversations", query: ["limit": "20"])),
            ("network", .fault(.offline(device: nil))),
            ("app-backend", .call(.init("agentSay", [.word("c-1"), .text("Hi")]))),
            ("app-backend", .answer(.ok(response: nil))),
            ("d1", .answer(.offline)),
        ]
        try RecordingFixtures.file(
            at: path, schema: "v11", mode: "server",
            traffic: old.enumerated().map { index, row in
                [
                    "channel": "http", "direction": index == 3 || index == 4 ? "in" : "out", "summary": row.kind.summary,
                    "device_id": row.device, "kind": row.kind.json,
                ]
            })
        let store = try RecordingStore(path: path)
        let traffic = try store.traffic(of: 1)
        #expect(traffic.map(\.entry.origin) == [.device("d1"), .network, .otherSide, .otherSide, .device("d1")])
        #expect(traffic.map(\.entry.kind) == old.map(\.kind))
        #expect(try store.read { db in try String?.fetchAll(db, sql: "SELECT origin FROM traffic") } == Array(repeating: nil, count: 5))
        // The field recording in examples/ (schema v4) reads as its device's.
        let (_, _, field) = try FieldExportTests.load()
        #expect(!field.isEmpty && field.allSatisfy { $0.entry.deviceId != nil })
        // Its listing reads as it did.
        let recorded = try store.session("1")
        #expect(
            TrafficListing.lines(recorded, steps: [], traffic: traffic).dropFirst() == [
                "[+00:00:00.000] -  d1           http → GET /v1/conversations?limit=20",
                "[+00:00:00.001] -  network      http → offline",
                "[+00:00:00.002] -  app-backend  http → agentSay(c-1, \"Hi\")",
                "[+00:00:00.003] -  app-backend  http ← ok",
                "[+00:00:00.004] -  d1           http ← error offline",
            ])
    }

    /// A value this version does not know is refused, not guessed.
    @Test func anUnknownOriginIsCorrupt() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(
            store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), name: "origins", kind: .script)
        let entry = TrafficEntry(time: t0, origin: .device("d"), channel: .ws, direction: .out, kind: .close, exchange: 1)
        recorder.record("clock", StepResult(output: "", status: .ok, traffic: [entry]))
        recorder.finish()
        try store.write { db in try db.execute(sql: "UPDATE traffic SET origin = 'satellite'") }
        #expect {
            try store.traffic(of: recorder.session.id)
        } throws: { error in
            (error as? RecordingError)?.message
                == "traffic 1 of session \(recorder.session.id) has origin satellite: expected device, network or other-side"
        }
    }
}
