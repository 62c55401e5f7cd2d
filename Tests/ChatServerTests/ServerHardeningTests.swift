import AsyncHTTPClient
import ChatTestSupport
import Foundation
import GRDB
import Logging
import Synchronization
import Testing

@testable import ChatBackend
@testable import ChatServer

/// Issue 26 (SPEC S4): the server keeps secrets and internals inside, and
/// opens only its own database, once.
@Suite struct ServerHardeningTests {
    @Test func logTextLosesItsCredentials() {
        let text = """
            Authorization: Bearer at-1a2b3c4d5e6f, X-App-Secret: demo-secret-0123, ["x-api-key": "demo-key"] \
            jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl refresh rt-9f8e7d6c5b
            """
        let redacted = LogRedaction.redact(text)
        for secret in ["at-1a2b3c4d5e6f", "demo-secret-0123", "demo-key", "eyJhbGciOiJIUzI1NiJ9", "rt-9f8e7d6c5b"] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
        #expect(redacted.contains("X-App-Secret: <redacted>"))
        #expect(LogRedaction.redact("no such table: message") == "no such table: message")
    }

    /// A 500 answers a generic message; SQLite's message and the SQL go to
    /// the log, and the log holds no credential or body of the request.
    @Test func aServerFailureKeepsItsDetailsAndTheRequestOutOfTheAnswer() async throws {
        let folder = try TemporaryFolder()
        let lines = Locked<[String]>([])
        var configuration = ChatServer.Configuration(port: 0, databasePath: folder.url.appendingPathComponent("s.sqlite").path)
        configuration.logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let server = try ChatServer(configuration: configuration)
        let running = try await server.start()
        let tokens = try server.backend.issueTokens(apiKey: ChatServer.demoApiKey, userId: "alice")
        // Break the storage under the server: every send now fails inside SQLite.
        try await server.backend.dbQueue.write { db in try db.execute(sql: "DROP TABLE message") }

        var request = HTTPClientRequest(url: running.baseURL + "/v1/conversations/c1/messages")
        request.method = .POST
        request.headers.add(name: "X-Api-Key", value: ChatServer.demoApiKey)
        request.headers.add(name: "Authorization", value: "Bearer \(tokens.accessToken)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(Data(#"{"createConversation":{},"message":{"id":"m1","content":{"text":{"_0":"BODY-SECRET"}}}}"#.utf8))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        await running.stop()

        #expect(response.status.code == 500)
        #expect(body.contains("\"internalError\""))
        #expect(!body.contains("no such table"), "the answer names the table: \(body)")
        #expect(!body.localizedCaseInsensitiveContains("sql"), "the answer names SQL: \(body)")
        let log = lines.value.joined(separator: "\n")
        #expect(log.contains("request failed"))
        #expect(log.contains("POST /v1/conversations/c1/messages"))
        #expect(log.contains("no such table"))
        for secret in [tokens.accessToken, ChatServer.demoApiKey, "BODY-SECRET"] {
            #expect(!log.contains(secret), "\(secret) in the log: \(log)")
        }
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("notes.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: ChatServer.Refusal.self) { try ChatServer(configuration: .init(port: 0, databasePath: path)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        do {
            try DatabaseFileCheck.check(path)
        } catch {
            #expect(error.description.contains("another program's SQLite database (tables notes)"))
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("text.sqlite").path
        try Data("hello, this is not a database, but it is long enough".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseFileCheck.Refusal.self) { try DatabaseFileCheck.check(path) }
    }

    @Test func aNewAnEmptyAndAChatbenchDatabasePass() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("new.sqlite").path
        try DatabaseFileCheck.check(path)
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try DatabaseFileCheck.check(path)
        _ = try Backend(environment: .init(clock: .init { .simulationEpoch }, random: .init(SystemRandomNumberGenerator())), path: path)
        try DatabaseFileCheck.check(path)
    }

    @Test func damagedPagesAreRefusedAtStart() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("damaged.sqlite").path
        do {
            let backend = try Backend(
                environment: .init(clock: .init { .simulationEpoch }, random: .init(SystemRandomNumberGenerator())), path: path)
            try backend.createApp(apiKey: "k", jwtSecret: "s")
            let tokens = try backend.issueTokens(apiKey: "k", userId: "alice")
            for n in 0..<300 {
                _ = backend.handle(
                    .init(
                        apiKey: "k", accessToken: tokens.accessToken, deviceId: "d",
                        request: .sendMessage(
                            conversationId: "c", createConversation: .init(title: nil),
                            message: .init(id: "m\(n)", content: .text(String(repeating: "x", count: 400)), replyTo: nil))))
            }
            try backend.dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        var offset: UInt64 = 2 * 4096 + 100
        while offset + 4096 < size {
            try handle.seek(toOffset: offset)
            handle.write(Data(repeating: 0xA5, count: 3000))
            offset += 3 * 4096
        }
        try handle.close()
        do {
            try DatabaseFileCheck.check(path)
            Issue.record("a damaged file passed")
        } catch {
            #expect(error.description.contains("is damaged") || error.description.contains("cannot be read"), "\(error)")
        }
    }

    @Test func oneServerPerDatabaseFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("one.sqlite").path
        let first = try ServerLock(databasePath: path)
        do {
            _ = try ServerLock(databasePath: path)
            Issue.record("a second lock was taken")
        } catch {
            #expect(error.description.contains("in use by another chatbench serve (pid \(getpid()))"))
        }
        first.release()
        let again = try ServerLock(databasePath: path)
        again.release()
    }

    /// `/health` says when the database cannot be read.
    @Test func healthSaysWhenTheDatabaseCannotBeRead() throws {
        let backend = try Backend(environment: .init(clock: .init { .simulationEpoch }, random: .init(SystemRandomNumberGenerator())))
        #expect(backend.health() == nil)
        try backend.dbQueue.write { db in try db.execute(sql: "DROP TABLE push") }
        #expect(backend.health()?.contains("cannot be read") == true)
    }
}

/// Keeps every log line, with its metadata, for a test to read.
struct CapturingLogHandler: LogHandler {
    let lines: Locked<[String]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.withLock { $0.append("\(event.message) \(merged)") }
    }
}
