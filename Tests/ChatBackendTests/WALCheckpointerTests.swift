import ChatCore
import Foundation
import GRDB
import Testing

@testable import ChatBackend

/// A file-backed backend checkpoints its write-ahead log on a connection of
/// its own (WALCheckpointer), not inside the commits of its writer.
@Suite struct WALCheckpointerTests {
    /// Sends `count` messages of alice's through a file-backed backend,
    /// waiting for the checkpointer after each `batch`; returns the largest
    /// size the log reached.
    private func send(_ count: Int, batch: Int, path: String) throws -> (backend: Backend, largestLog: Int) {
        let clock = TestClock()
        let backend = try Backend(
            environment: BackendEnvironment.counting(on: clock), path: path,
            commitSync: .normal)
        try backend.createApp(apiKey: "k", jwtSecret: "s")
        let token = try backend.issueTokens(apiKey: "k", userId: "alice").accessToken
        var largest = 0
        for n in 0..<count {
            _ = try backend.handle(
                WireEnvelope(
                    apiKey: "k", accessToken: token, deviceId: "d",
                    request: .sendMessage(
                        conversationId: "c1", createConversation: NewConversation(title: nil),
                        message: NewMessage(id: "m\(n)", content: .text("message \(n)"), replyTo: nil)))
            ).get()
            if n % batch == batch - 1 {
                backend.checkpointer?.waitUntilIdle()
                largest = max(largest, Self.size(of: path + "-wal"))
            }
        }
        return (backend, largest)
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func theLogIsCheckpointedAndStaysBoundedWhileTheWriterGoesOn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("backend.sqlite").path

        // 2,000 sends write some 14,000 pages to the log. The writer's hook
        // replaces SQLite's own checkpoint, so without the checkpointer the
        // log would hold them all (~56 MB); with it, the log is reused once a
        // checkpoint has caught up.
        let (backend, largestLog) = try send(2_000, batch: 100, path: path)
        let pageSize = 4_096
        #expect(largestLog > 0)
        #expect(largestLog < 4 * Int(WALCheckpointer.thresholdFrames) * pageSize, "the log grew to \(largestLog) bytes")

        // Everything committed is there, from another connection too.
        #expect(try backend.messages(conversationId: "c1").count == 2_000)
        let reader = try DatabaseQueue(path: path)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") } == 2_000)
        #expect(try reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func aBackendReopenedAtOnceFindsTheFileFree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("backend.sqlite").path
        // Each backend goes away with a checkpoint likely in flight: it must
        // be finished, and the file closed, by the time the next one opens.
        for round in 0..<10 {
            let clock = TestClock()
            let backend = try Backend(
                environment: BackendEnvironment.counting(on: clock), path: path,
                commitSync: .normal)
            if round == 0 { try backend.createApp(apiKey: "k", jwtSecret: "s") }
            let token = try backend.issueTokens(apiKey: "k", userId: "alice").accessToken
            for n in 0..<200 {
                _ = try backend.handle(
                    WireEnvelope(
                        apiKey: "k", accessToken: token, deviceId: "d",
                        request: .sendMessage(
                            conversationId: "c1", createConversation: NewConversation(title: nil),
                            message: NewMessage(id: "m\(round)-\(n)", content: .text("message"), replyTo: nil)))
                ).get()
            }
        }
        let reader = try DatabaseQueue(path: path)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") } == 2_000)
    }

    @Test func anInMemoryBackendHasNoCheckpointer() throws {
        let world = try TestWorld()
        #expect(world.backend.checkpointer == nil)
    }
}
