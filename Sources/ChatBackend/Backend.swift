import ChatCore
import Foundation
import GRDB
import Synchronization

/// The chat backend: apps, users, tokens, conversations, messages and
/// realtime events, stored in SQLite (SPEC S1).
///
/// One implementation serves the embedded world (in memory, on a virtual
/// clock) and the server mode (a file). Every method is synchronous and
/// thread-safe: database work happens inside GRDB `read`/`write` closures on a
/// `DatabaseQueue`, and the little in-memory state (realtime subscriptions,
/// counters) sits behind a `Mutex`. Time and identifiers come from the
/// injected ``BackendEnvironment`` only.
///
/// ```swift
/// let backend = try Backend(environment: env)
/// try backend.createApp(apiKey: "demo-key", jwtSecret: "s3cret")
/// let tokens = try backend.issueTokens(apiKey: "demo-key", userId: "alice")
/// let result = backend.handle(WireEnvelope(apiKey: "demo-key", accessToken: tokens.accessToken,
///                                          deviceId: "dev-1", request: .listConversations(cursor: nil, limit: 20)))
/// ```
public final class Backend: Sendable {
    let environment: BackendEnvironment
    let dbQueue: DatabaseQueue
    let state = Mutex(State())
    /// Kinds of the events appended lately, by their JSON text or, for a
    /// message, its reference (`messageReferenceKey`): delivery reads back
    /// the events just written, and need not decode what it encoded. Per
    /// backend: a reference names a message of this backend only.
    let recentEventKinds = Mutex<[ExactKey: WireEvent.Kind]>([:])
    /// Checkpoints a file's write-ahead log off the writer's thread (nil in memory).
    let checkpointer: WALCheckpointer?

    /// In-memory state: realtime subscriptions and counters.
    struct State {
        /// What the last failed write said, while no write has succeeded
        /// since (a full disk, an I/O error, damaged pages): ``health()``.
        var storageProblem: String?
        var requestCount = 0
        var nextSubscription: Int64 = 1
        var subscriptions = SubscriptionTable()
    }

    /// Opens a backend.
    ///
    /// - Parameters:
    ///   - environment: the clock and identifier source.
    ///   - path: a SQLite file to persist to (server mode), kept in WAL
    ///     mode and checkpointed off the writer's thread; `nil` keeps
    ///     everything in memory (embedded mode).
    ///   - commitSync: how each commit to the file is synced (see
    ///     ``CommitSync``); unused in memory. Default `.full`.
    package init(environment: BackendEnvironment, path: String? = nil, commitSync: CommitSync = .full) throws {
        self.environment = environment
        if let path {
            try Self.useWriteAheadLog(path)
            let checkpointer = try WALCheckpointer(path: path)
            var configuration = Self.fileConfiguration
            configuration.prepareDatabase { db in
                try db.execute(sql: commitSync.pragma)
                checkpointer.install(on: db)
            }
            dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            self.checkpointer = checkpointer
        } else {
            // SQLite's private temporary database (an empty path): its pages
            // stay in memory up to the page cache's size and go to a file
            // of its own beyond it, which is deleted when it closes. An
            // in-memory database held every row in the process: 45 MB of a
            // world of 100,000 messages (issue 31).
            dbQueue = try DatabaseQueue(path: "")
            checkpointer = nil
        }
        try BackendSchema.migrator.migrate(dbQueue)
    }

    /// How every connection to a backend's file opens: a lock held for a
    /// moment elsewhere (another process, a connection closing) is waited
    /// for, up to 5 s, instead of failing the request at once.
    static var fileConfiguration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// Puts the database file in WAL mode (a setting the file keeps): a
    /// commit then costs at most one sync of the log instead of several of a
    /// rollback journal (none with ``CommitSync/normal``), and readers of
    /// other processes (`sqlite3`) never block the writer.
    static func useWriteAheadLog(_ path: String) throws {
        let queue = try DatabaseQueue(path: path, configuration: fileConfiguration)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
    }

    deinit {
        guard let checkpointer else { return }
        dbQueue.inDatabase { WALCheckpointer.uninstall(on: $0) }
        checkpointer.close()
    }

    /// The number of SDK requests answered by ``handle(_:)`` so far, whatever
    /// their outcome. The workbench uses it to tell that a step made no request.
    package var requestCount: Int {
        state.withLock { $0.requestCount }
    }

    // MARK: Apps

    /// Registers an app; the embedded world creates one with apiKey "demo-key" and a jwtSecret.
    ///
    /// Throws a ``WireError`` with code `badRequest` if the key is empty or
    /// already registered.
    package func createApp(apiKey: String, jwtSecret: String, settings: AppSettings = .init()) throws {
        let apiKey = Identifier.normalized(apiKey)
        guard !apiKey.isEmpty else { throw WireError(.badRequest, "The API key is empty") }
        let json = try Self.encode(settings)
        try write { db in
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM app WHERE apiKey = ?"), arguments: [apiKey]) == true {
                throw WireError(.badRequest, "An app with this API key already exists")
            }
            try db.cachedStatement(sql: "INSERT INTO app (apiKey, jwtSecret, settings) VALUES (?, ?, ?)").execute(arguments: [
                apiKey, jwtSecret, json,
            ])
        }
    }

    /// The settings of the app with this API key. Throws `invalidApiKey` for an unknown key.
    package func settings(apiKey: String) throws -> AppSettings {
        try read { db in try Self.appSettings(db, apiKey: apiKey) }
    }

    /// Changes the settings of the app with this API key.
    ///
    /// ```swift
    /// try backend.updateSettings(apiKey: "demo-key") { $0.maxAttachmentBytes = 1_000_000 }
    /// ```
    /// Throws `invalidApiKey` for an unknown key.
    package func updateSettings(apiKey: String, _ change: (inout AppSettings) -> Void) throws {
        try write { db in
            var settings = try Self.appSettings(db, apiKey: apiKey)
            change(&settings)
            try db.cachedStatement(sql: "UPDATE app SET settings = ? WHERE apiKey = ?").execute(arguments: [
                try Self.encode(settings), apiKey,
            ])
        }
    }

    /// The JWT secret of an app (for the workbench's `login jwt`). Throws `invalidApiKey` for an unknown key.
    package func jwtSecret(apiKey: String) throws(WireError) -> String {
        try read { db in
            guard
                let secret = try String.fetchOne(db.cachedStatement(sql: "SELECT jwtSecret FROM app WHERE apiKey = ?"), arguments: [apiKey])
            else {
                throw WireError(.invalidApiKey)
            }
            return secret
        }
    }

    static func appSettings(_ db: Database, apiKey: String) throws -> AppSettings {
        guard let json = try String.fetchOne(db.cachedStatement(sql: "SELECT settings FROM app WHERE apiKey = ?"), arguments: [apiKey])
        else {
            throw WireError(.invalidApiKey)
        }
        return try decodedSettings(json)
    }

    /// Decoded settings by their JSON text: every request reads its app's
    /// settings, and decoding JSON each time cost more than the query.
    private static let settingsByJSON = Mutex<[ExactKey: AppSettings]>([:])

    static func decodedSettings(_ json: String) throws -> AppSettings {
        if let known = settingsByJSON.withLock({ $0[ExactKey(json)] }) { return known }
        let settings = try decode(AppSettings.self, from: json)
        settingsByJSON.withLock { memo in
            if memo.count >= 64 { memo.removeAll() }
            memo[ExactKey(json)] = settings
        }
        return settings
    }

    // MARK: Requests

    /// Answers one SDK request. Never throws anything else than WireError, never crashes on any input.
    ///
    /// `refresh` and the sign-in requests need only the API key; `logout`
    /// accepts an expired access token; every other request needs a valid,
    /// unexpired access token in `envelope.accessToken`.
    ///
    /// Identifiers are normalised first (``Identifier``): whichever spelling
    /// a client sends, the backend stores, compares and answers the NFC one.
    package func handle(_ envelope: WireEnvelope) -> Result<WireResponse, WireError> {
        state.withLock { $0.requestCount += 1 }
        do throws(WireError) {
            return .success(try answer(envelope.normalizingIdentifiers()))
        } catch {
            return .failure(error)
        }
    }

    private func answer(_ envelope: WireEnvelope) throws(WireError) -> WireResponse {
        let request = envelope.request
        if case .refresh(let refreshToken) = request {
            return .tokens(try refresh(apiKey: envelope.apiKey, refreshToken: refreshToken, deviceId: envelope.deviceId))
        }
        if request.isSignIn { return try signIn(envelope) }
        if case .logout = request {
            try logout(apiKey: envelope.apiKey, accessToken: envelope.accessToken, deviceId: envelope.deviceId)
            return .ok
        }
        let caller = try authenticate(apiKey: envelope.apiKey, accessToken: envelope.accessToken, deviceId: envelope.deviceId)
        switch request {
        case .refresh, .loginJWT, .loginAnonymous, .connectUserId, .connectAccessToken, .connectSessionToken, .logout:
            preconditionFailure("handled above")
        case .listConversations(let cursor, let limit):
            return .conversations(try listConversations(caller, cursor: cursor, limit: limit))
        case .getConversation(let id):
            return .conversation(try getConversation(caller, id: id))
        case .listMessages(let conversationId, let cursor, let limit):
            return .messages(try listMessages(caller, conversationId: conversationId, cursor: cursor, limit: limit))
        case .messagesSince(let conversationId, let afterSeq, let limit):
            return .messages(try messagesSince(caller, conversationId: conversationId, afterSeq: afterSeq, limit: limit))
        case .sendMessage(let conversationId, let createConversation, let message):
            let (conversation, sent) = try sendMessage(caller, conversationId: conversationId, create: createConversation, message: message)
            return .sent(conversation: conversation, message: sent)
        case .setTyping(let conversationId, _):
            try setTyping(caller, conversationId: conversationId)
            return .ok
        case .registerDevice(let pushToken):
            try registerDevice(caller, deviceId: envelope.deviceId, pushToken: pushToken)
            return .ok
        case .unregisterDevice:
            try unregisterDevice(caller, deviceId: envelope.deviceId)
            return .ok
        case .getCurrentUser:
            return .user(try currentUser(caller))
        case .updateUser(let nickname, let profileURL, let attributes, let replaceAttributes):
            return .user(
                try updateUser(
                    caller, nickname: nickname, profileURL: profileURL, attributes: attributes, replaceAttributes: replaceAttributes == true
                ))
        case .uploadProfileImage(let mimeType, let size, let attachmentId):
            return .user(try uploadProfileImage(caller, mimeType: mimeType, size: size, attachmentId: attachmentId))
        case .uploadAttachment(let mimeType, let data):
            return .attachment(try uploadAttachment(caller, mimeType: mimeType, data: data))
        case .attachmentData(let id):
            let (mimeType, data) = try attachmentData(caller, id: id)
            return .attachmentData(mimeType: mimeType, data: data)
        case .appLimits:
            return .limits(caller.settings.attachmentLimits)
        }
    }

    // MARK: Database access

    /// Runs `body` in a write transaction; a thrown ``WireError`` rolls it back
    /// and is rethrown, any other error becomes `internalError`.
    func write<T>(_ body: (Database) throws -> T) throws(WireError) -> T {
        do {
            let value = try dbQueue.write(body)
            state.withLock { $0.storageProblem = nil }
            return value
        } catch let error as WireError {
            throw error
        } catch {
            noteStorageProblem(error)
            throw WireError(.internalError, "\(error)")
        }
    }

    /// Remembers a failure of the storage itself (not of a statement).
    private func noteStorageProblem(_ error: any Error) {
        guard let error = error as? DatabaseError, Self.storageFailures.contains(error.resultCode.primaryResultCode) else { return }
        state.withLock { $0.storageProblem = "\(error.resultCode): \(error.message ?? "no message")" }
    }

    private static let storageFailures: [ResultCode] = [
        .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM,
    ]

    /// Whether the database can be read and was last written (issue 26): nil
    /// when healthy, else what is wrong, in one line. Reads a row of each
    /// table (so a damaged page on the way is found) and reports the last
    /// write's failure of the storage itself (a full disk), until a write
    /// succeeds again.
    package func health() -> String? {
        if let problem = state.withLock({ $0.storageProblem }) { return "the last write failed (\(problem))" }
        do {
            try dbQueue.inDatabase { db in
                for table in ["app", "user", "token", "session", "conversation", "message", "event", "device", "push", "attachment"] {
                    _ = try Row.fetchOne(db, sql: "SELECT * FROM \(table) LIMIT 1")
                }
            }
            return nil
        } catch let error as DatabaseError {
            return "the database cannot be read (\(error.resultCode): \(error.message ?? "no message"))"
        } catch {
            return "the database cannot be read (\(error))"
        }
    }

    /// Runs `body` with the connection to itself; errors are mapped as in
    /// ``write(_:)``. No transaction: the queue serializes every access, so
    /// the statements of `body` see one state of the database, and a
    /// BEGIN/COMMIT around each read was most of the cost of small reads.
    func read<T>(_ body: (Database) throws -> T) throws(WireError) -> T {
        do {
            return try dbQueue.inDatabase(body)
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.internalError, "\(error)")
        }
    }

    // MARK: JSON

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }
}
