import ChatCore
import ChatSDK
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import Workbench

/// A device's wall clock can be set while the app runs (NTP, the user):
/// a field recording keeps each record's monotonic time beside its wall
/// time (schema v10), and the timeline, the replay and the export order
/// and space the records by the monotonic time, so a clock set back or
/// forward between two calls neither reorders them nor stretches the time
/// between them (issue 27).
@Suite struct FieldClockJumpTests {
    struct Recording {
        var path: String
        /// When the app sent its message before the change of the date and
        /// the one after it, on the world's clock (which does not jump).
        var before: Int64
        var after: Int64
    }

    /// An app's session whose device clock is set by `jump` between its two sends.
    static func record(jump: Duration, into folder: TemporaryFolder) throws -> Recording {
        let world = try World(seed: 1)
        let device = WallClockRuntime(world: world)
        let app = FieldApp(world: world, runtime: device, deviceId: "device-clock", appName: "Clock 1.0", in: folder)
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        try app.call { try await client.startConversation(id: "c-clock", title: nil) }
        let before = world.now.milliseconds
        try app.call { try await client.sendMessage(.text("before"), in: "c-clock") }
        world.advance(by: .seconds(5))
        device.setWallClock(by: jump)
        let after = world.now.milliseconds
        try app.call { try await client.sendMessage(.text("after"), in: "c-clock") }
        world.advance(by: .seconds(3))
        try app.call { await client.shutdown() }
        return Recording(path: try app.export(), before: before, after: after)
    }

    static let jumps: [Duration] = [.seconds(-3600), .seconds(600)]

    static func sendStep(_ text: String, in steps: [RecordedStep]) throws -> RecordedStep {
        try #require(steps.first { $0.input == "sendMessage(.text(\"\(text)\"), in: \"c-clock\")" })
    }

    /// The file keeps both times: the wall clock jumps, the monotonic time does not.
    @Test(arguments: jumps) func theFileKeepsTheWallClockAndTheMonotonicTime(_ jump: Duration) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.record(jump: jump, into: folder)
        let (_, steps, _) = try FieldExportTests.load(recording.path)
        let (before, after) = (try Self.sendStep("before", in: steps), try Self.sendStep("after", in: steps))
        let wall = (try #require(before.deviceClock), try #require(after.deviceClock))
        #expect(wall.1 - wall.0 == recording.after - recording.before + jump.wholeMilliseconds)
        #expect(after.virtualTime - before.virtualTime == recording.after - recording.before)
        #expect(steps.map(\.virtualTime) == steps.map(\.virtualTime).sorted())
    }

    /// `sessions show FILE` and `--timeline`: the calls in their order,
    /// stamped on the monotonic time, and where the device's clock was set.
    @Test(arguments: jumps) func theTimelineFollowsTheMonotonicTime(_ jump: Duration) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.record(jump: jump, into: folder)
        let (session, steps, traffic) = try FieldExportTests.load(recording.path)
        let (before, after) = (try Self.sendStep("before", in: steps), try Self.sendStep("after", in: steps))
        let start = SessionListing.startTime(of: steps, first: steps[0], session: session)
        let drawn = Timeline.draw(session, steps: steps, traffic: traffic)
        let stamps = drawn.compactMap { line in line.hasPrefix("[") ? String(line.prefix(14)) : nil }
        #expect(stamps == stamps.sorted(), "\(drawn.joined(separator: "\n"))")
        #expect(drawn.contains(SessionListing.stamp(after.virtualTime, since: start) + "  ▶ #\(after.number) " + after.input))
        #expect(after.virtualTime - start == before.virtualTime - start + (recording.after - recording.before))
        let direction = jump < .zero ? "back" : "forward"
        let note = try #require(drawn.first { $0.hasPrefix("device clock: ") }, "\(drawn.joined(separator: "\n"))")
        let amount = Format.duration(milliseconds: abs(jump.wholeMilliseconds))
        #expect(note.hasPrefix("device clock: set \(direction) \(amount) between #\(before.number) and #\(after.number) "))
        #expect(SessionListing.transcript(session, steps: steps).map(\.text).contains(note))
        // The export's timeline: each call at its monotonic time, in order.
        let timeline = FieldTimeline(steps: steps, traffic: traffic)
        let calls = timeline.actions.compactMap { action -> (step: Int, time: Int64)? in
            if case .call(_, let step) = action.kind { (step, action.time) } else { nil }
        }
        #expect(calls.map(\.step) == steps.map(\.number))
        let times = Dictionary(uniqueKeysWithValues: calls.map { ($0.step, $0.time) })
        #expect(times[after.number]! - times[before.number]! == recording.after - recording.before)
        #expect(timeline.actions.map(\.time) == timeline.actions.map(\.time).sorted())
    }

    /// `chatbench replay FILE`: the device's clock is the monotonic time;
    /// the replay matches, over as much time as the device spent.
    @Test(arguments: jumps) func theReplayRunsOnTheMonotonicTime(_ jump: Duration) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.record(jump: jump, into: folder)
        let (_, steps, traffic) = try FieldExportTests.load(recording.path)
        let outcome = try FieldReplayTests.replay(recording.path)
        #expect(outcome.divergence == nil, "\(outcome.divergence?.diff.joined(separator: "\n") ?? "")")
        #expect(outcome.tapeDivergences == [])
        #expect(outcome.identical)
        let times = steps.map(\.virtualTime) + steps.flatMap(\.events).map(\.virtualTime) + traffic.map(\.entry.time.milliseconds)
        #expect(outcome.virtualMilliseconds == times.max()! - times.min()!)
        // Five seconds between the sends, three after: no hour, no ten minutes.
        #expect(outcome.virtualMilliseconds < 60_000)
    }

    /// The replay's client reads the wall clock the device read: set at the
    /// call where the recording shows the device's was, so what depended on
    /// the date depends on it again (its own recording says so too).
    @Test(arguments: jumps) func theReplaySetsTheClientsClockWhereTheDevicesWasSet(_ jump: Duration) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.record(jump: jump, into: folder)
        let (session, steps, _) = try FieldExportTests.load(recording.path)
        let outcome = try FieldReplayTests.replay(recording.path)
        #expect(outcome.identical)
        // At each call, the wall clock as far from the monotonic time as the device's was (times themselves are not compared).
        let offsets = { (steps: [RecordedStep]) in steps.map { step in step.deviceClock.map { $0 - step.virtualTime } } }
        #expect(offsets(outcome.steps) == offsets(steps))
        #expect(offsets(steps).contains(jump.wholeMilliseconds))
        let said = { (steps: [RecordedStep]) in
            SessionListing.clockNotes(session, steps: steps).map { $0.components(separatedBy: " (it read").first! }
        }
        #expect(said(steps).count == 1)
        #expect(said(outcome.steps) == said(steps))
    }

    /// `chatbench export FILE test.chat`: the sends in their order, the
    /// clock advanced by the time between them, and the transcript passes.
    @Test(arguments: jumps) func theExportRunsOnTheMonotonicTime(_ jump: Duration) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.record(jump: jump, into: folder)
        let (session, steps, traffic) = try FieldExportTests.load(recording.path)
        let export = try FieldExport.export(session, steps: steps, traffic: traffic)
        #expect(export.notes == [])
        #expect(export.reproduced)
        let lines = export.text.split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex(of: "> send c1 text \"before\""))
        let second = try #require(lines.firstIndex(of: "> send c1 text \"after\""), "\(export.text)")
        #expect(first < second)
        // The clock is advanced between them by the time between the calls, less what the first send took.
        let advances = try lines.filter { $0.hasPrefix("> clock advance ") }.map {
            try DurationParser.parse(String($0.dropFirst("> clock advance ".count))).wholeMilliseconds
        }
        let between = try lines[first..<second].filter { $0.hasPrefix("> clock advance ") }.map {
            try DurationParser.parse(String($0.dropFirst("> clock advance ".count))).wholeMilliseconds
        }
        #expect((4_000...5_000).contains(between.reduce(0, +)), "\(export.text)")
        #expect(advances.reduce(0, +) < 60_000, "\(export.text)")
        let path = folder.url.appendingPathComponent("clock.chat").path
        try Data(export.text.utf8).write(to: URL(fileURLWithPath: path))
        let result = TranscriptRunner.run(path: path)
        #expect(result.passed, "\(result.failures.joined(separator: "\n"))")
    }

    /// The size limit drops what was written first, not what reads
    /// earliest: after the date is set back an hour, the newest calls read
    /// an hour before the ones written before them, and the size limit
    /// dropped them first (by `virtual_time`, the device's wall clock).
    @Test func theSizeLimitDropsWhatWasWrittenFirstWhateverTheClockSays() throws {
        let folder = try TemporaryFolder()
        let world = try World(seed: 1)
        let device = WallClockRuntime(world: world)
        let app = FieldApp(world: world, runtime: device, deviceId: "device-clock", appName: "Clock 1.0", in: folder, maxBytes: 200_000)
        let client = app.client
        try app.call { try await client.setCurrentUser(userId: "alice") }
        try app.call { try await client.startConversation(id: "c-clock", title: nil) }
        for n in 1...400 {
            if n == 201 { device.setWallClock(by: .seconds(-3600)) }
            try app.call { try await client.sendMessage(.text("message number \(n)"), in: "c-clock") }
        }
        let file = folder.url.appendingPathComponent("diagnostics.sqlite").path
        let steps = try DatabaseQueue(path: file).read { db in
            try String.fetchAll(db, sql: "SELECT input FROM step ORDER BY session_id, number")
        }
        func send(_ n: Int) -> String { "sendMessage(.text(\"message number \(n)\"), in: \"c-clock\")" }
        #expect(!steps.contains("setCurrentUser(userId: \"alice\")"))
        #expect(!steps.contains(send(1)))
        // What was written last is kept, whatever its wall time.
        #expect(steps.suffix(3) == [send(398), send(399), send(400)])
        // And what is kept is all that came after what went.
        let kept = (1...400).filter { steps.contains(send($0)) }
        #expect(kept == Array((kept.first ?? 400)...400))
    }
}
