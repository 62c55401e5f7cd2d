import ChatCore
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK
@testable import Workbench

@Suite struct TrafficRecordingTests {
    private let token = "at_0123abcd4567ef89"
    private let t0 = Instant.simulationEpoch

    private func entry(
        _ ms: Int64, _ device: String, _ channel: TrafficEntry.Channel, _ direction: TrafficEntry.Direction,
        _ summary: String, _ body: String?, _ exchange: Int
    ) -> TrafficEntry {
        TrafficEntry(
            time: t0 + .milliseconds(ms), origin: .device(device), channel: channel, direction: direction,
            kind: .described(summary, channel, direction, .device(device)),
            body: body.map { Data($0.utf8) }, exchange: exchange)
    }

    /// A session of three recorded steps (and a blank line) carrying traffic.
    private func recorded(in folder: TemporaryFolder) throws -> (RecordingStore, Recorder) {
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(
            store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), name: "tape", kind: .script)
        recorder.record(
            "user set alice",
            StepResult(
                output: "ok\n", status: .ok,
                traffic: [
                    entry(
                        20, "alice-device", .http, .out, "POST /v1/identity",
                        #"{"accessToken":null,"request":{"connectUserId":{"userId":"alice"}}}"#, 1),
                    entry(
                        40, "alice-device", .http, .in, "ok session", #"{"response":{"session":{"tokens":{"accessToken":"\#(token)"}}}}"#, 1
                    ),
                ]))
        recorder.record(
            "   ",
            StepResult(
                output: "", status: .ok,
                traffic: [
                    entry(50, "alice-device", .ws, .out, "open after=-", #"{"accessToken":"\#(token)"}"#, 2)
                ]))
        recorder.record(
            "print \(token)",
            StepResult(
                output: "\(token)\n", status: .ok,
                traffic: [
                    entry(70, "alice-device", .ws, .in, "ready", nil, 2),
                    entry(1_070, "bob-device", .http, .out, "GET /v1/conversations?limit=20", nil, 1),
                ]))
        recorder.record("clock", StepResult(output: "", status: .ok))
        recorder.finish()
        return (store, recorder)
    }

    @Test func trafficIsStoredWithItsStepsRedactedAndReadBack() throws {
        let folder = try TemporaryFolder()
        let (store, recorder) = try recorded(in: folder)
        let tape = try store.traffic(of: recorder.session.id)
        #expect(tape.map(\.seq) == [1, 2, 3, 4, 5])
        // The blank line's traffic goes with the next step.
        #expect(tape.map(\.step) == [1, 1, 2, 2, 2])
        #expect(tape.map(\.entry.deviceId) == ["alice-device", "alice-device", "alice-device", "alice-device", "bob-device"])
        #expect(tape.map(\.entry.exchange) == [1, 1, 2, 2, 1])
        #expect(tape.map(\.entry.time.milliseconds) == [20, 40, 50, 70, 1_070].map { t0.milliseconds + $0 })
        #expect(tape.map(\.entry.channel) == [.http, .http, .ws, .ws, .http])
        #expect(tape.map(\.entry.direction) == [.out, .in, .out, .in, .out])
        // The token got the placeholder the step's output gave it.
        let steps = try store.steps(of: recorder.session.id)
        #expect(steps[1].output == "<token#1>\n")
        #expect(tape[1].entry.body == Data(#"{"response":{"session":{"tokens":{"accessToken":"<token#1>"}}}}"#.utf8))
        #expect(tape[2].entry.body == Data(#"{"accessToken":"<token#1>"}"#.utf8))
        #expect(tape[3].entry.body == nil)
        // Never in clear, anywhere in the file.
        let path = store.path
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "in \(file)")
        }
        // The listing `sessions show --traffic` prints.
        let lines = TrafficListing.lines(try store.session("tape"), steps: steps, traffic: tape)
        #expect(
            Array(lines.dropFirst()) == [
                "[+00:00:00.020] step 1  alice-device  http → POST /v1/identity",
                "[+00:00:00.040] step 1  alice-device  http ← ok session",
                "[+00:00:00.050] step 2  alice-device  ws   → open after=-",
                "[+00:00:00.070] step 2  alice-device  ws   ← ready",
                "[+00:00:01.070] step 2  bob-device    http → GET /v1/conversations?limit=20",
            ])
    }

    /// The recorder numbers the tape without asking the database (issue
    /// 31): each step's rows are all in the file once it is recorded (read
    /// by another connection, as after a kill), and a writer that does ask
    /// (`append` without `firstSeq`) goes on from the same number.
    @Test func eachStepsRowsAreCommittedAndTheTapeNumberedOn() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sqlite").path
        let store = try RecordingStore(path: path)
        let recorder = try Recorder(store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), kind: .script)
        let other = try DatabaseQueue(path: path)
        func counts() throws -> [Int] {
            try other.read { db in
                try ["step", "traffic"].map {
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0) WHERE session_id = ?", arguments: [recorder.session.id]) ?? -1
                }
            }
        }
        for number in 1...3 {
            let traffic = (0..<number).map { entry(Int64($0), "alice-device", .http, .out, "GET /v1/conversations?limit=20", "{}", $0 + 1) }
            recorder.record(
                "print \(number)",
                StepResult(output: "\(number)\n", status: .ok, traffic: traffic))
            #expect(try counts() == [number, number * (number + 1) / 2])
        }
        let step = RecordedStep(
            number: 4, input: "clock", output: "", status: .ok, virtualTime: 0, wallTime: Date(), wallMicroseconds: 0, events: [],
            stoppedAfterTicks: nil)
        try store.append(step, traffic: [entry(9, "bob-device", .http, .out, "GET /v1/limits", nil, 1)], to: recorder.session.id)
        #expect(try store.traffic(of: recorder.session.id).map(\.seq) == Array(1...7))
        #expect(try store.traffic(of: recorder.session.id).map(\.step) == [1, 2, 2, 3, 3, 3, 4])
    }

    /// However many events and traffic rows a step has, they are all
    /// written in its commit and read back, in order, the tape numbered on.
    @Test func aStepsManyRowsAreAllWrittenInOrder() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let session = try store.begin(RecordingStore.NewSession(seed: 1, kind: .script))
        let counts = [1, 8, 19]
        for count in counts {
            let events = (1...count).map { RecordedEvent(virtualTime: Int64($0), source: "sdk", text: "event \($0)") }
            let step = RecordedStep(
                number: count, input: "clock", output: "", status: .ok, virtualTime: 0, wallTime: Date(), wallMicroseconds: 0,
                events: events, stoppedAfterTicks: nil)
            let traffic = (1...count).map { entry(Int64($0), "device-\($0)", .http, .out, "GET /v1/limits", "{\"n\":\($0)}", $0) }
            try store.append(step, traffic: traffic, to: session.id)
            let read = try store.steps(of: session.id).last
            #expect(read?.events == events)
            let tape = try store.traffic(of: session.id).filter { $0.step == count }
            #expect(tape.map(\.entry.deviceId) == (1...count).map { "device-\($0)" })
            #expect(tape.map(\.entry.body) == traffic.map(\.body))
        }
        #expect(try store.traffic(of: session.id).map(\.seq) == Array(1...counts.reduce(0, +)))
    }

    @Test func aBundleCarriesTheTape() throws {
        let folder = try TemporaryFolder()
        let (store, recorder) = try recorded(in: folder)
        let bundlePath = folder.url.appendingPathComponent("bug.sqlite").path
        try store.exportBundle(recorder.session.id, to: bundlePath)
        let bundle = try RecordingStore(path: bundlePath, create: false, bundle: true)
        let bundled = try bundle.bundledSession()
        #expect(try bundle.traffic(of: bundled.id) == store.traffic(of: recorder.session.id))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bundlePath))
        #expect(bytes.range(of: Data(token.utf8)) == nil)
    }

    @Test func aSessionWithoutTrafficSaysSo() throws {
        let folder = try TemporaryFolder()
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), kind: .script)
        _ = recorder.execute("clock")
        #expect(try store.traffic(of: recorder.session.id).isEmpty)
        #expect(
            TrafficListing.lines(recorder.session, steps: [], traffic: []).last
                == "(no traffic: nothing crossed the network in this session)")
    }

    @Test func aVersion1FileGainsTheTapesColumns() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("old.sqlite").path
        let queue = try DatabaseQueue(path: path)
        var migrator = RecordingSchema.migrator
        try migrator.migrate(queue, upTo: "v1")
        migrator = RecordingSchema.migrator
        #expect(try queue.read { try migrator.appliedIdentifiers($0) } == ["v1"])
        try queue.close()
        let store = try RecordingStore(path: path)
        let columns = try store.read { db in try db.columns(in: "traffic").map(\.name) }
        #expect(columns.suffix(5) == ["device_id", "exchange", "kind", "monotonic_time", "origin"])
    }

    /// v4 rebuilds the per-step tables WITHOUT ROWID (a commit writes fewer
    /// pages); a version 3 file keeps every step, event and tape entry,
    /// and cascading deletes still reach them.
    @Test func aVersion3FileKeepsItsRowsInTablesWithoutRowids() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("v3.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try RecordingSchema.migrator.migrate(queue, upTo: "v3")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (id, uuid, created, tool_version, seed, mode, kind, platform)
                        VALUES (1, 'u1', '2026-11-24 00:00:00.000', 'test', 1, 'embedded', 'script', 'linux');
                    INSERT INTO step VALUES (1, 1, 'clock', 'out', 'ok', 5, '2026-11-24 00:00:00.000', 10);
                    INSERT INTO step VALUES (1, 2, 'send c1 text "hi"', 'out2', 'ok', 6, '2026-11-24 00:00:00.001', 11);
                    INSERT INTO event VALUES (1, 2, 1, 6, 'sdk', 'an event');
                    INSERT INTO traffic VALUES (1, 1, 2, 6, '2026-11-24 00:00:00.001', 'http', 'request', 'POST /x', x'7b7d', 'd1', 1);
                    """)
        }
        try queue.close()
        let store = try RecordingStore(path: path)
        try store.read { db in
            for table in ["step", "event", "traffic"] {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table]) ?? ""
                #expect(sql.hasSuffix("WITHOUT ROWID"), "\(table): \(sql)")
            }
            #expect(try String.fetchAll(db, sql: "SELECT input FROM step ORDER BY number") == ["clock", "send c1 text \"hi\""])
            #expect(try String.fetchAll(db, sql: "SELECT text FROM event") == ["an event"])
            #expect(try String.fetchAll(db, sql: "SELECT device_id || ' ' || summary FROM traffic") == ["d1 POST /x"])
        }
        let steps = try store.steps(of: 1)
        #expect(steps.map(\.input) == ["clock", "send c1 text \"hi\""] && steps[1].events.map(\.text) == ["an event"])
        try store.database.write { db in try db.execute(sql: "DELETE FROM session WHERE id = 1") }
        let left = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM step) + (SELECT COUNT(*) FROM event) + (SELECT COUNT(*) FROM traffic)")
        }
        #expect(left == 0)
    }
}
