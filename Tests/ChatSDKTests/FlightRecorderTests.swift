import ChatCore
import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK

/// The flight recorder (issue 27): the app's calls, the client's events and
/// the wire in one SQLite file of the recording schema, bounded, exported.
@Suite struct FlightRecorderTests {
    static func settings(in folder: TemporaryFolder, content: ChatClient.Diagnostics.Content = .kept) -> ChatClient.Diagnostics {
        var settings = ChatClient.Diagnostics(file: folder.url.appendingPathComponent("diagnostics.sqlite").path, appName: "Acme 1.0")
        settings.device = "test device"
        settings.content = content
        return settings
    }

    static func rows(_ sql: String, in path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in try String.fetchAll(db, sql: sql) }
    }

    /// A failed message's state is recorded as its name and its error's
    /// code, and its text as the SDK renders the state (issue 30).
    @Test func aFailedMessagesStateIsItsNameAndItsErrorsCode() throws {
        let folder = try TemporaryFolder()
        let settings = Self.settings(in: folder)
        let f = try Fixture(autoResend: false, diagnostics: settings)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1") }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        f.world.network.setOnline(false)
        let message = try f.call { try await f.client.sendMessage(.text("nope"), in: conversation.id) }
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.first?.state == .failed(ChatError(.offline, "The device is offline")))
        let values = try Self.rows("SELECT value FROM event ORDER BY step, seq", in: settings.file).compactMap(AppEvent.init(json:))
        #expect(values.contains(.message(id: message.id, state: .failed, error: "offline", content: .text("nope"))), "\(values)")
        #expect(
            values.contains {
                if case .emission(_, .items(1, false, [.init(id: message.id, state: .failed, error: "offline")]), _, _) = $0 {
                    true
                } else {
                    false
                }
            })
        let texts = try Self.rows("SELECT text FROM event ORDER BY step, seq", in: settings.file)
        #expect(texts.contains("\(message.id): failed(offline) \"nope\""))
    }

    @Test func isOffByDefault() throws {
        let f = try Fixture()
        #expect(f.client.recorder == nil)
        #expect(chatError { try f.client.exportDiagnostics(to: "/tmp/never-written.sqlite") }?.code == .invalidArgument)
    }

    @Test func recordsTheAppsCallsTheClientsEventsAndTheWire() throws {
        let folder = try TemporaryFolder()
        let settings = Self.settings(in: folder)
        let f = try Fixture(diagnostics: settings)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1") }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        try f.call { try await f.client.sendMessage(.text("hello"), in: conversation.id) }
        f.world.runUntilIdle()
        #expect(watcher.last?.data.elements.first?.state == .sent)

        let path = settings.file
        #expect(
            try Self.rows("SELECT mode || ' ' || kind || ' ' || name || ' ' || tool_version || ' ' || platform FROM session", in: path)
                == ["field app Acme 1.0 ChatSDK \(ChatClient.sdkVersion) test device"])
        let steps = try Self.rows("SELECT input FROM step ORDER BY number", in: path)
        #expect(steps.first?.hasPrefix("ChatClient(configuration: cacheMode: .memory") == true)
        #expect(
            Array(steps.dropFirst()) == [
                "setCurrentUser(userId: \"alice\")", "startConversation(id: \"c-1\", title: nil)",
                "watchItems(ofConversationWithId: \"c-1\")", "sendMessage(.text(\"hello\"), in: \"c-1\")",
            ])
        let events = try Self.rows("SELECT text FROM event ORDER BY step, seq", in: path)
        #expect(events.contains("client.session authenticated(alice, via: tokens)"))
        #expect(events.contains { $0.hasSuffix(": sent \"hello\"") })
        #expect(events.contains { $0.hasPrefix("w1: 1 item") && $0.contains("sent") }, "\(events)")
        #expect(events.contains { $0.hasPrefix("call: sendMessage returned ") })
        let traffic = try Self.rows("SELECT direction || ' ' || summary FROM traffic ORDER BY seq", in: path)
        #expect(traffic.contains("out POST /v1/conversations/c-1/messages"))
        #expect(traffic.contains("in ok sent"))
        // Each row's kind beside its summary (v8).
        let kinds = try Self.rows("SELECT kind FROM traffic ORDER BY seq", in: path)
        #expect(kinds.contains(#"{"answer":{"answer":{"ok":{"response":"sent"}}}}"#))
        // The workbench's schema, applied by its own migrations.
        #expect(
            try Self.rows("SELECT identifier FROM grdb_migrations", in: path)
                == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12"])
    }

    /// Each record carries the device's wall clock (`virtual_time`, and
    /// `wall_time` on calls and wire rows) and its monotonic time (v10,
    /// `monotonic_time`: ms since the session began): setting the device's
    /// date moves the one, not the other.
    @Test func eachRecordCarriesTheWallClockAndTheMonotonicTime() throws {
        let folder = try TemporaryFolder()
        let settings = Self.settings(in: folder)
        let world = try World(seed: 1)
        let device = WallClockRuntime(world: world)
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: device)
        configuration.cacheMode = .memory
        configuration.diagnostics = settings
        let origin = world.now.milliseconds
        let client = ChatClient(configuration: configuration, tokenProvider: SimulatedTokenProvider(world: world))
        world.runUntilIdle()
        _ = try #require(world.run { try await client.setCurrentUser(userId: "alice") }).get()
        world.advance(by: .seconds(2))
        device.setWallClock(by: .seconds(-3600))
        let set = world.now.milliseconds - origin
        _ = try #require(world.run { try await client.startConversation(id: "c-1", title: nil) }).get()
        _ = try #require(world.run { try await client.sendMessage(.text("hi"), in: "c-1") }).get()
        world.runUntilIdle()
        let path = settings.file
        let sessionStart = "CAST(ROUND((julianday(created) - 2440587.5) * 86400000) AS INTEGER)"
        #expect(try Self.rows("SELECT \(sessionStart) FROM session", in: path) == ["\(origin)"])
        for (table, order) in [("step", "number"), ("event", "step, seq"), ("traffic", "seq")] {
            let rows = try DatabaseQueue(path: path).read { db in
                try Row.fetchAll(db, sql: "SELECT virtual_time, monotonic_time FROM \(table) ORDER BY \(order)")
                    .map { (wall: $0["virtual_time"] as Int64, monotonic: $0["monotonic_time"] as Int64?) }
            }
            let monotonic = rows.compactMap(\.monotonic)
            #expect(monotonic.count == rows.count, "\(table)")
            #expect(monotonic == monotonic.sorted(), "\(table): in record order")
            #expect(rows.contains { $0.monotonic! >= set }, "\(table)")
            for row in rows {
                // Before the date was set, the wall clock read the session's start plus the monotonic time; after, an hour less.
                #expect(row.wall == origin + row.monotonic! - (row.monotonic! >= set ? 3_600_000 : 0), "\(table) \(row)")
            }
        }
        // A call's and a wire row's `wall_time` is its wall clock, as a date.
        let asDate = "CAST(ROUND((julianday(wall_time) - 2440587.5) * 86400000) AS INTEGER) = virtual_time"
        #expect(try Self.rows("SELECT DISTINCT \(asDate) FROM step UNION SELECT DISTINCT \(asDate) FROM traffic", in: path) == ["1"])
    }

    @Test func exportWritesOneSelfContainedFile() throws {
        let folder = try TemporaryFolder()
        let f = try Fixture(diagnostics: Self.settings(in: folder))
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let export = folder.url.appendingPathComponent("ticket-4711.sqlite").path
        try f.client.exportDiagnostics(to: export)
        #expect(!FileManager.default.fileExists(atPath: export + "-wal"))
        #expect(try Self.rows("PRAGMA journal_mode", in: export) == ["delete"])
        #expect(try Self.rows("SELECT input FROM step WHERE number = 2", in: export) == ["setCurrentUser(userId: \"alice\")"])
        // Never over a file that exists.
        #expect(chatError { try f.client.exportDiagnostics(to: export) }?.code == .invalidArgument)
    }

    @Test func aFileThatIsNotARecordingLeavesTheRecorderOffWithAWarning() throws {
        let folder = try TemporaryFolder()
        let settings = Self.settings(in: folder)
        let other = try DatabaseQueue(path: settings.file)
        try other.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try other.close()
        let world = try World(seed: 1)
        let warnings = Locked<[String]>([])
        var configuration = ChatClient.Configuration(apiKey: World.apiKey, transport: world.makeTransport(), runtime: world)
        configuration.cacheMode = .memory
        configuration.diagnostics = settings
        configuration.onEvent = { event in
            if case .warning(let text) = event { warnings.withLock { $0.append(text) } }
        }
        let client = ChatClient(configuration: configuration)
        world.runUntilIdle()
        #expect(client.recorder == nil)
        #expect(warnings.withLock { $0 }.contains { $0.hasPrefix("The flight recorder is off: \(settings.file) cannot be used") })
    }

    @Test func oldRecordsGoFirstWhenTheFileIsTooOld() throws {
        let folder = try TemporaryFolder()
        var settings = Self.settings(in: folder)
        settings.maxAge = .seconds(3600)
        let f = try Fixture(diagnostics: settings)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1") }
        f.world.advance(by: .seconds(7200))
        for n in 1...40 { try f.call { try await f.client.sendMessage(.text("m\(n)"), in: conversation.id) } }
        let steps = try Self.rows("SELECT input FROM step ORDER BY number", in: settings.file)
        #expect(!steps.contains("setCurrentUser(userId: \"alice\")"))
        #expect(steps.contains("sendMessage(.text(\"m40\"), in: \"c-1\")"))
    }

    @Test func theFileStaysUnderItsSizeLimit() throws {
        let folder = try TemporaryFolder()
        var settings = Self.settings(in: folder)
        settings.maxBytes = 200_000
        let f = try Fixture(diagnostics: settings)
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "c-1") }
        for n in 1...400 { try f.call { try await f.client.sendMessage(.text("message number \(n)"), in: conversation.id) } }
        let queue = try DatabaseQueue(path: settings.file)
        let used = try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, pragma_freelist_count, pragma_page_size")
                ?? 0
        }
        // Checked every 64 records: at most that many past the limit.
        #expect(used < 260_000)
        let steps = try queue.read { db in try String.fetchAll(db, sql: "SELECT input FROM step ORDER BY number") }
        #expect(!steps.contains("setCurrentUser(userId: \"alice\")"))
        #expect(steps.last == "sendMessage(.text(\"message number 400\"), in: \"c-1\")")
    }

    @Test func redactedContentKeepsKindLengthAndDigest() throws {
        #expect(ContentRedaction.summary(of: "hello") == "<text 5 chars sha256:2cf24dba5fb0a30e>")
        let json = Data(#"{"content":{"text":{"_0":"chest pain"}},"id":"m-1","lastMessagePreview":"chest pain"}"#.utf8)
        let redacted = String(decoding: ContentRedaction.redact(json: json), as: UTF8.self)
        #expect(!redacted.contains("chest"))
        #expect(redacted.contains(#""id":"m-1""#))
    }
}
