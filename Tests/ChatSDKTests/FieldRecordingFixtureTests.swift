import ChatSimulation
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatSDK

/// The field recording kept in the repository (examples/field/, shown by
/// examples 54 and 55) is what the flight recorder writes for its story:
/// made again here and compared row by row. With
/// `CHATBENCH_UPDATE_FIXTURES=1` the test writes it instead.
@Suite struct FieldRecordingFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/field/support-ticket.sqlite").path

    /// A customer signs in, asks about an order, loses the network, asks
    /// again while offline, gets it back, and the agent answers.
    static func record(into folder: TemporaryFolder) throws -> String {
        var settings = ChatClient.Diagnostics(
            file: folder.url.appendingPathComponent("diagnostics.sqlite").path, appName: "Acme Shop 3.2 (iOS)")
        settings.device = "iPhone15,3 iOS 18.1"
        let f = try Fixture(diagnostics: settings, deviceId: "device-alice-iphone")
        try f.call { try await f.client.setCurrentUser(userId: "alice") }
        let conversation = try f.call { try await f.client.startConversation(id: "order-4711", title: "Order 4711") }
        let watcher = Collected(f.client.watchItems(ofConversationWithId: conversation.id), in: f.world)
        try f.call { try await f.client.sendMessage(.text("Where is my order?"), in: conversation.id) }
        f.world.advance(by: .seconds(5))
        f.world.network.dropAll()
        f.world.network.setOnline(false)
        try f.call { try await f.client.sendMessage(.text("Hello?"), in: conversation.id) }
        f.world.advance(by: .seconds(30))
        f.world.network.setOnline(true)
        f.world.runUntilIdle()
        f.world.advance(by: .seconds(5))
        try f.world.agentSay("It ships tomorrow.", in: f.client.serverId(ofConversation: conversation.id))
        f.world.advance(by: .seconds(1))
        try f.call { await f.client.shutdown() }
        #expect(watcher.last?.data.elements.count == 3)
        let export = folder.url.appendingPathComponent("export.sqlite").path
        try f.client.exportDiagnostics(to: export)
        return export
    }

    /// Every row but what differs from run to run (the session's uuid, the
    /// wall clock).
    static func rows(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT 'session|' || name || '|' || created || '|' || tool_version || '|' || mode || '|' || kind || '|' || platform FROM session
                    UNION ALL SELECT * FROM (SELECT 'step|' || number || '|' || input || '|' || virtual_time FROM step ORDER BY number)
                    UNION ALL SELECT * FROM (SELECT 'event|' || step || '|' || seq || '|' || virtual_time || '|' || text FROM event ORDER BY step, seq)
                    UNION ALL SELECT * FROM (
                        SELECT 'traffic|' || seq || '|' || IFNULL(step, '-') || '|' || virtual_time || '|' || channel || '|' || direction || '|'
                            || summary || '|' || IFNULL(CAST(body AS TEXT), '') FROM traffic ORDER BY seq)
                    """)
        }
    }

    @Test func theRepositorysFieldRecordingIsWhatTheRecorderWrites() throws {
        let folder = try TemporaryFolder()
        let made = try Self.record(into: folder)
        if ProcessInfo.processInfo.environment["CHATBENCH_UPDATE_FIXTURES"] == "1" {
            try? FileManager.default.removeItem(atPath: Self.fixture)
            try FileManager.default.createDirectory(
                atPath: (Self.fixture as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: made, toPath: Self.fixture)
        }
        let (now, kept) = (try Self.rows(made), try Self.rows(Self.fixture))
        #expect(now == kept, "\(now.difference(from: kept))")
    }
}
