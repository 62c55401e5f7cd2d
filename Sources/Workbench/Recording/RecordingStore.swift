import ChatSDK
import ChatSQLite
import Foundation
import GRDB

/// The SQLite database sessions are recorded into (SPEC W5), and bundles
/// (W9) are written as. WAL mode, `synchronous=NORMAL`, and a busy timeout,
/// so that several processes can record into one file at once: a writer
/// waits for another instead of failing with "database is locked".
///
/// The schema is documented in docs/recording-schema.md.
package final class RecordingStore: Sendable {
    /// `PRAGMA application_id` of a chatbench recording ("chbt").
    package static let applicationID: Int32 = RecordingSchema.applicationID
    /// How long a writer waits for another before giving up.
    package static let busyTimeout: TimeInterval = 10

    /// The file's path.
    package let path: String
    let database: DatabaseQueue
    /// The folder of the copy opened instead of a file named to be read
    /// that an older chatbench or SDK wrote (``init(path:create:bundle:)``).
    private let scratch: URL?

    deinit {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    /// Where recordings go by default: `$XDG_DATA_HOME/chatbench/sessions.sqlite`,
    /// by default `~/.local/share/chatbench/sessions.sqlite`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        // The XDG spec says to ignore relative paths.
        let data: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            data = home + "/.local/share"
        }
        return data + "/chatbench/sessions.sqlite"
    }

    /// Opens the database at `path`.
    ///
    /// - Parameters:
    ///   - create: create the file (and its folder) when it does not exist;
    ///     when false a missing file is an error (listing, replaying).
    ///   - bundle: a bundle is one self-contained file: rollback journal, not WAL.
    package init(path: String, create: Bool = true, bundle: Bool = false) throws(RecordingError) {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists {
            guard create else {
                throw RecordingError(.missing, "no recording database at \(path): record a session first, or name another file with --db")
            }
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do {
                    try FileManager.default.createDirectory(
                        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw RecordingError(
                        .unwritable,
                        "cannot create the folder \(folder) for \(path): \(Self.reason(error)); pass --db with another path, or --no-record"
                    )
                }
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        // A file named to be read (a bundle, an app's diagnostics file) is
        // read without being changed: one of an older schema is migrated in
        // a copy, never in place (a customer's file stays as it came).
        var opened = path
        scratch = bundle && !create ? Self.migratedCopyFolder(ifNeededFor: path) : nil
        if let scratch { opened = scratch.appendingPathComponent((path as NSString).lastPathComponent).path }
        do {
            database = try DatabaseQueue(path: opened, configuration: configuration)
            // Several processes creating the file at once can meet a busy
            // error that SQLite does not wait out (a stale read snapshot
            // upgrading to a write, a journal mode changing): try again
            // shortly.
            var attempt = 0
            while true {
                do {
                    if !bundle { try Self.useWAL(database) }
                    try Self.checkAndMigrate(database, path: path)
                    break
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 40 {
                    attempt += 1
                    usleep(useconds_t(5_000 * attempt))
                }
            }
        } catch let error as RecordingError {
            throw error
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    // MARK: Opening

    /// A temporary folder holding a copy of `path` (and of its write-ahead
    /// log, which may hold what a killed app committed last) when the file is
    /// a recording of an older schema; nil when it is current, newer or not
    /// a recording (then it is opened as it is, and refused if need be).
    private static func migratedCopyFolder(ifNeededFor path: String) -> URL? {
        var configuration = Configuration()
        configuration.readonly = true
        let older: Bool? = try? DatabaseQueue(path: path, configuration: configuration).read { db in
            guard try Int32.fetchOne(db, sql: "PRAGMA application_id") == Self.applicationID else { return false }
            let migrator = RecordingSchema.migrator
            return try !migrator.hasCompletedMigrations(db) && !migrator.hasBeenSuperseded(db)
        }
        guard older == true else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chatbench-read-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let name = (path as NSString).lastPathComponent
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: folder.appendingPathComponent(name + suffix).path)
            }
            return folder
        } catch {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
    }

    /// Puts the file in WAL mode unless it is already (the mode is the
    /// file's, kept across opens). Not GRDB's `journalMode = .wal`, which
    /// also asks Foundation for the log's attributes (reading /etc/passwd
    /// and /etc/group for its owner's name) and, when the log is empty, as
    /// it is after every clean close, commits a dummy transaction to fill
    /// it: DatabasePool needs that, a DatabaseQueue does not. That was a
    /// write, a sync and 3M instructions of every recorded start. Asking
    /// first keeps an existing file's open a read; changing the mode takes
    /// the file alone, so processes creating it at once may be told busy.
    private static func useWAL(_ database: DatabaseQueue) throws {
        try database.writeWithoutTransaction { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" else { return }
            // A mode that could not change is answered with the old one.
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(resultCode: .SQLITE_BUSY, message: "the journal mode could not change")
            }
        }
    }

    private static func checkAndMigrate(_ database: DatabaseQueue, path: String) throws {
        let migrator = RecordingSchema.migrator
        let (fileID, tables, superseded, complete) = try database.read { db in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            let ours = id == Self.applicationID
            return (id, tables, ours ? try migrator.hasBeenSuperseded(db) : false, ours ? try migrator.hasCompletedMigrations(db) : false)
        }
        // Another process creating the file at this moment leaves, for an
        // instant, only the migrator's own table: that file is ours too.
        let beingCreated = fileID == 0 && tables == ["grdb_migrations"]
        if fileID != Self.applicationID, !beingCreated {
            if fileID != 0 || !tables.isEmpty {
                let what = tables.isEmpty ? "" : " (tables: \(tables.prefix(5).joined(separator: ", ")))"
                throw RecordingError(
                    .foreign,
                    "\(path) is a SQLite database of something else\(what), not a chatbench recording: pass --db with another path")
            }
        }
        if superseded {
            // The file's migrations this version does not have: named as they are, never read back as numbers.
            let unknown = try database.read { try migrator.appliedIdentifiers($0) }.subtracting(migrator.migrations).sorted()
            throw RecordingError(
                .newerSchema,
                "\(path) was written by a newer chatbench (schema \(unknown.joined(separator: ", ")); this one knows up to \(RecordingSchema.current)): upgrade chatbench, or pass --db with another path"
            )
        }
        guard !complete else { return }
        // Other processes may be migrating the file at the same moment: a
        // migration one of them applied first fails here (its transaction
        // rolls back), and the next attempt goes on from what is applied.
        // Each failure is another process's progress, so this ends.
        for attempt in 1... {
            do {
                try migrator.migrate(database)
                return
            } catch {
                if try database.read({ try migrator.hasCompletedMigrations($0) }) { return }
                if attempt == 8 { throw error }
            }
        }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// One line saying what is wrong with the file and what to do.
    static func translate(_ error: any Error, path: String) -> RecordingError {
        if let error = error as? RecordingError { return error }
        guard let error = error as? DatabaseError else {
            return RecordingError(.unwritable, "cannot use \(path): \(reason(error))")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return RecordingError(
                .corrupt,
                "\(path) is not a usable SQLite database (damaged, or not a database at all): move it away, or pass --db with another path")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return RecordingError(
                .locked,
                "\(path) stayed locked by another process for \(Int(busyTimeout)) s: close the program holding it, or pass --db with another path"
            )
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_FULL:
            return RecordingError(
                .unwritable,
                "cannot write \(path): \(reason(error)); check its permissions and free space, or pass --db with another path or --no-record"
            )
        default:
            return RecordingError(.unwritable, "cannot use \(path): \(reason(error))")
        }
    }

    /// Runs `body` in a write transaction, turning SQLite errors into one line.
    func write<T>(_ body: (Database) throws -> T) throws(RecordingError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(RecordingError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    // MARK: Writing

    /// Describes a session about to be recorded.
    package struct NewSession: Sendable {
        package var name: String?
        package var seed: UInt64
        package var kind: SessionKind
        package var mode = SessionMode.embedded
        package var serverURL: String?
        /// The random component of its client-side ids, in server mode (``DeviceIDTag``).
        package var idTag: String?
        package var toolVersion = WorkbenchVersion.current
        package var platform = RecordingStore.platform
        package var created = Date()

        package init(name: String? = nil, seed: UInt64, kind: SessionKind) {
            self.name = name
            self.seed = seed
            self.kind = kind
        }
    }

    /// `linux-x86_64 (Debian GNU/Linux 12 …)`: the environment fingerprint's platform.
    package static let platform: String = {
        #if os(Linux)
            let os = "linux"
        #elseif os(macOS)
            let os = "macos"
        #else
            let os = "other"
        #endif
        #if arch(x86_64)
            let arch = "x86_64"
        #elseif arch(arm64)
            let arch = "arm64"
        #else
            let arch = "other"
        #endif
        return "\(os)-\(arch) (\(ProcessInfo.processInfo.operatingSystemVersionString))"
    }()

    /// Inserts a session row, committed at once (so that a killed process
    /// still leaves its session), and returns it.
    package func begin(_ new: NewSession) throws(RecordingError) -> RecordedSession {
        let uuid = UUID().uuidString.lowercased()
        let id = try write { db -> Int64? in
            // A name picks one session: a second session of that name is refused.
            if let name = new.name, try Int64.fetchOne(db, sql: "SELECT id FROM session WHERE name = ?", arguments: [name]) != nil {
                return nil
            }
            try db.execute(
                sql: """
                    INSERT INTO session (uuid, name, created, tool_version, seed, mode, server_url, kind, platform, id_tag)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    uuid, new.name, new.created, new.toolVersion, Int64(bitPattern: new.seed), new.mode.rawValue, new.serverURL,
                    new.kind.rawValue, new.platform, new.idTag,
                ])
            return db.lastInsertedRowID
        }
        guard let id else {
            throw RecordingError(
                .nameTaken,
                "a session named \"\(new.name ?? "")\" is already recorded in \(path): choose another --name (chatbench sessions lists them)"
            )
        }
        return RecordedSession(
            id: id, uuid: uuid, name: new.name, created: new.created, ended: nil, toolVersion: new.toolVersion,
            seed: new.seed, mode: new.mode, serverURL: new.serverURL, kind: new.kind, platform: new.platform,
            stepCount: 0, status: .ok, idTag: new.idTag)
    }

    /// Appends one step, its events and the traffic it carried (already
    /// redacted: ``WorkbenchSession/redacted(_:)``) in one transaction (one
    /// commit). The traffic continues the session's tape: from `firstSeq`
    /// when the caller knows how long the tape is (the recorder, which
    /// writes the session alone), else after its last entry.
    package func append(
        _ step: RecordedStep, traffic: [TrafficEntry] = [], firstSeq: Int? = nil, to sessionID: Int64
    ) throws(RecordingError) {
        try writeStep { db in
            try Self.insert(step, sessionID: sessionID, db)
            try Self.insert(traffic, step: step.number, wallTime: step.wallTime, firstSeq: firstSeq, sessionID: sessionID, db)
        }
    }

    /// A step's transaction, as `write` makes one but with `BEGIN IMMEDIATE`
    /// and `COMMIT` prepared once and run by SQLite's own calls
    /// (``Statement/run(_:)``): `write` parses both again for each
    /// transaction, which was over a quarter of the instructions a recorded step
    /// adds. IMMEDIATE takes the write lock at once, so a writer waiting
    /// for another process waits at the start (busy timeout) rather than
    /// failing halfway.
    func writeStep(_ body: (Database) throws -> Void) throws(RecordingError) {
        do {
            try database.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").run()
                do {
                    try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").run()
                } catch {
                    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                    throw error
                }
            }
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    static func insert(_ step: RecordedStep, sessionID: Int64, _ db: Database) throws {
        let insertStep = try db.cachedStatement(
            sql: """
                INSERT INTO step (session_id, number, input, output, status, virtual_time, wall_time, wall_us, stopped_after_ticks, call, styles)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try insertStep.run(
            .int(sessionID), .int(Int64(step.number)), .text(step.input), .text(step.output), .text(step.status.recordedName),
            .int(step.virtualTime),
            .text(SQLiteTime.string(from: step.wallTime)), .int(step.wallMicroseconds),
            .int(step.stoppedAfterTicks), .text(step.callJSON), .text(step.outputStyles.map(StyledText.Span.json)))
        guard !step.events.isEmpty else { return }
        let insertEvent = try db.cachedStatement(
            sql: """
                INSERT INTO event (session_id, step, seq, virtual_time, source, text, value, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for (index, event) in step.events.enumerated() {
            try insertEvent.run(
                .int(sessionID), .int(Int64(step.number)), .int(Int64(index + 1)), .int(event.virtualTime), .text(event.source),
                .text(event.text), .text(event.valueJSON), .text(event.kind.json))
        }
    }

    /// Marks a session as ended.
    package func end(_ sessionID: Int64, at time: Date = Date()) throws(RecordingError) {
        try write { db in
            try db.execute(sql: "UPDATE session SET ended = ? WHERE id = ?", arguments: [time, sessionID])
        }
    }

    /// Replaces every step of a session (`replay --update`), in one transaction.
    package func replaceSteps(of sessionID: Int64, with steps: [RecordedStep]) throws(RecordingError) {
        try write { db in
            try db.execute(sql: "DELETE FROM event WHERE session_id = ?", arguments: [sessionID])
            try db.execute(sql: "DELETE FROM step WHERE session_id = ?", arguments: [sessionID])
            for step in steps { try Self.insert(step, sessionID: sessionID, db) }
        }
    }

    // MARK: Reading

    private static let sessionColumns = """
        s.id, s.uuid, s.name, s.created, s.ended, s.tool_version, s.seed, s.mode, s.server_url, s.kind, s.platform, s.id_tag,
        (SELECT COUNT(*) FROM step WHERE session_id = s.id) AS steps,
        COALESCE((SELECT MAX(CASE status WHEN 'scriptError' THEN 3 WHEN 'expectFailed' THEN 2 WHEN 'interrupted' THEN 1 ELSE 0 END)
                  FROM step WHERE session_id = s.id), 0) AS worst
        """

    private static func session(_ row: Row) throws(RecordingError) -> RecordedSession {
        let worst: Int = row["worst"]
        guard let mode = SessionMode(rawValue: row["mode"]) else {
            throw RecordingError(.corrupt, "session \(row["id"] as Int64) has a mode this version does not know: \(row["mode"] as String)")
        }
        guard let kind = SessionKind(rawValue: row["kind"]) else {
            throw RecordingError(.corrupt, "session \(row["id"] as Int64) has a kind this version does not know: \(row["kind"] as String)")
        }
        return RecordedSession(
            id: row["id"], uuid: row["uuid"], name: row["name"], created: row["created"], ended: row["ended"],
            toolVersion: row["tool_version"], seed: UInt64(bitPattern: row["seed"]), mode: mode,
            serverURL: row["server_url"], kind: kind, platform: row["platform"], stepCount: row["steps"],
            status: [StepStatus.ok, .interrupted, .expectFailed, .scriptError][max(0, min(3, worst))], idTag: row["id_tag"])
    }

    /// Every session, oldest first.
    package func sessions() throws(RecordingError) -> [RecordedSession] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.sessionColumns) FROM session s ORDER BY s.id").map { try Self.session($0) }
        }
    }

    /// The session a user names: its id, or its name (the latest session of
    /// that name), or `last`, the newest session (unless one is named so)
    /// other than `excluding` (the one a REPL is recording: at its prompt,
    /// `last` is the session before it).
    package func session(_ reference: String, excluding: Int64? = nil) throws(RecordingError) -> RecordedSession {
        let found = try read { db -> RecordedSession? in
            if let id = Int64(reference),
                let row = try Row.fetchOne(db, sql: "SELECT \(Self.sessionColumns) FROM session s WHERE s.id = ?", arguments: [id])
            {
                return try Self.session(row)
            }
            if let named = try Row.fetchOne(
                db, sql: "SELECT \(Self.sessionColumns) FROM session s WHERE s.name = ? OR s.uuid = ? ORDER BY s.id DESC LIMIT 1",
                arguments: [reference, reference])
            {
                return try Self.session(named)
            }
            guard reference == "last" else { return nil }
            return try Row.fetchOne(
                db, sql: "SELECT \(Self.sessionColumns) FROM session s WHERE s.id IS NOT ? ORDER BY s.id DESC LIMIT 1",
                arguments: [excluding]
            ).map { try Self.session($0) }
        }
        guard let found else {
            throw RecordingError(.unknownSession, "no session \"\(reference)\" in \(path): `chatbench sessions --db \(path)` lists them")
        }
        return found
    }

    /// The steps of a session, in order, with their events, each at its
    /// time on the session's clock (``sessionTime(_:_:origin:)``).
    package func steps(of sessionID: Int64) throws(RecordingError) -> [RecordedStep] {
        try read { db in
            let origin = try Self.monotonicOrigin(of: sessionID, db)
            var events: [Int: [RecordedEvent]] = [:]
            let eventRows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT step, virtual_time, monotonic_time, source, text, value, kind FROM event WHERE session_id = ? ORDER BY step, seq",
                arguments: [sessionID])
            while let row = try eventRows.next() {
                // No kind (a row of an earlier build, a field recording's): from its value, else its text (LEGACY).
                let kind = (row["kind"] as String?).flatMap(RecordedEvent.Kind.init(json:))
                events[row["step"], default: []].append(
                    RecordedEvent(
                        virtualTime: Self.sessionTime(row["virtual_time"], row["monotonic_time"], origin: origin), source: row["source"],
                        text: row["text"], valueJSON: row["value"], kind: kind))
            }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT number, input, output, status, virtual_time, monotonic_time, wall_time, wall_us, stopped_after_ticks, call,
                           styles
                    FROM step WHERE session_id = ? ORDER BY number
                    """,
                arguments: [sessionID]
            ).map { row in
                let number: Int = row["number"]
                guard let status = StepStatus(recordedName: row["status"]) else {
                    throw RecordingError(
                        .corrupt,
                        "step \(number) of session \(sessionID) has a status this version does not know: \(row["status"] as String)")
                }
                let monotonic: Int64? = row["monotonic_time"]
                return RecordedStep(
                    number: number, input: row["input"], output: row["output"], status: status,
                    virtualTime: Self.sessionTime(row["virtual_time"], monotonic, origin: origin), wallTime: row["wall_time"],
                    wallMicroseconds: row["wall_us"], events: events[number] ?? [], stoppedAfterTicks: row["stopped_after_ticks"],
                    callJSON: row["call"], deviceClock: monotonic == nil ? nil : row["virtual_time"],
                    // Styles that do not fit the output (a damaged row) are dropped: the output stays, plain.
                    outputStyles: (row["styles"] as String?).flatMap { StyledText.Span.spans(json: $0, within: row["output"]) })
            }
        }
    }

    /// Where a row is on the session's clock, what readers order and space
    /// by: a field recording's row from v10 on the device's monotonic clock
    /// (its `monotonic_time`, ms since the session began, counted from the
    /// session's `created`: a wall clock that jumps does not reorder or
    /// stretch it); any other row (the workbench's own, a field recording
    /// made before v10) at its `virtual_time`, as before.
    static func sessionTime(_ virtualTime: Int64, _ monotonicTime: Int64?, origin: Int64) -> Int64 {
        monotonicTime.map { origin + $0 } ?? virtualTime
    }

    /// The session's start (`created`), in ms since the Unix epoch: where
    /// its monotonic times count from.
    static func monotonicOrigin(of sessionID: Int64, _ db: Database) throws -> Int64 {
        let created = try Date.fetchOne(db, sql: "SELECT created FROM session WHERE id = ?", arguments: [sessionID])
        return created.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? 0
    }

    // MARK: Bundles

    /// Writes one session, its steps, events and traffic into a new
    /// self-contained SQLite file (W9). Refuses to overwrite a file.
    package func exportBundle(_ sessionID: Int64, to bundlePath: String) throws(RecordingError) {
        guard !FileManager.default.fileExists(atPath: bundlePath) else {
            throw RecordingError(.unwritable, "\(bundlePath) already exists: choose another file name or remove it")
        }
        let bundle = try RecordingStore(path: bundlePath, create: true, bundle: true)
        let session = try session(String(sessionID))
        let steps = try steps(of: sessionID)
        let traffic = try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM traffic WHERE session_id = ? ORDER BY seq", arguments: [sessionID])
        }
        try bundle.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (id, uuid, name, created, ended, tool_version, seed, mode, server_url, kind, platform, id_tag)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    session.id, session.uuid, session.name, session.created, session.ended, session.toolVersion,
                    Int64(bitPattern: session.seed), session.mode.rawValue, session.serverURL, session.kind.rawValue, session.platform,
                    session.idTag,
                ])
            for step in steps { try Self.insert(step, sessionID: session.id, db) }
            for row in traffic {
                let columns = Array(row.columnNames)
                try db.execute(
                    sql:
                        "INSERT INTO traffic (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
            }
            try db.execute(sql: RecordingSchema.bundleTable)
            try db.execute(
                sql: "INSERT INTO bundle (session_id, exported, exported_by, source) VALUES (?, ?, ?, ?)",
                // The recording's file name only: its folder is the recording
                // machine's, not for a bug report to carry (issue 30).
                arguments: [session.id, Date(), WorkbenchVersion.current + " on " + Self.platform, (path as NSString).lastPathComponent])
        }
    }

    /// The session of a bundle file (its only one), or of an app's
    /// diagnostics file (its latest: one per launch of the app).
    package func bundledSession() throws(RecordingError) -> RecordedSession {
        let all = try sessions()
        guard let first = all.last else {
            throw RecordingError(.unknownSession, "\(path) holds no session: export one with `chatbench export SESSION --bundle FILE`")
        }
        return first
    }
}
