package import ChatCore
internal import ChatSQLite
import Foundation
internal import GRDB

/// The SDK's flight recorder (issue 27): what the app asked of the client,
/// what the client told it and what crossed the wire, kept in one SQLite
/// file of the app's with the schema of the workbench's recordings
/// (docs/recording-schema.md), so that `chatbench sessions show FILE`
/// reads it like any session:
///
/// - one `session` row per client (mode `field`, kind `app`, the app's
///   name as its name, `ChatSDK VERSION` as its tool, the device as its
///   platform);
/// - a `step` per call of the public API (`sendMessage(.text("hi"), in: "c-1")`);
/// - an `event` per thing the client told the app (session and connection
///   states, message states, warnings, watcher emissions in summary), as a
///   value (``AppEvent``) and its text, with the step of the last call
///   before it;
/// - `traffic` rows for the wire, as the workbench's tape records it.
///
/// Each record carries two times: the device's wall clock (the runtime's
/// ``ChatRuntime/clock``: `virtual_time` in ms, and `wall_time` as a date on
/// steps and wire rows), for when it happened in the world, and its
/// monotonic clock (``ChatRuntime/monotonicClock``, `monotonic_time`: ms
/// since the session began), which setting the date, NTP or a time zone
/// does not move: what readers order and space the records by.
///
/// Every record is one commit (WAL, `synchronous=NORMAL`): an app that is
/// killed keeps what it had. Secrets go through the workbench's redactor at
/// the write point, with the API key, app-issued tokens and header values
/// known to it before anything is written. The file is kept under
/// `maxBytes` and `maxAge` by dropping the oldest records.
///
/// `@unchecked Sendable`: its mutable state (`state`: the redactor, the
/// counters) is read and written only while `lock` is held, and every
/// write to the file happens in that same critical section, so records are
/// numbered and committed in one order.
package final class FlightRecorder: @unchecked Sendable {
    let settings: ChatClient.Diagnostics
    let runtime: any ChatRuntime
    /// The monotonic clock's reading when the session began: `monotonic_time` counts from it.
    let monotonicOrigin: Instant
    let database: DatabaseQueue
    private let lock = NSLock()
    private var state: State

    struct State {
        var redactor: Redactor
        var session: Int64 = 0
        var step = 0
        var eventSeq = 0
        var trafficSeq = 0
        var writes = 0
        /// Set when a write failed: recording stops, the client carries on.
        var failed = false
    }

    /// How often (in records) the size and age limits are checked.
    static let pruneInterval = 64

    /// Opens (or creates) the recording file and begins a session in it.
    package init(settings: ChatClient.Diagnostics, runtime: any ChatRuntime, apiKey: String) throws {
        self.settings = settings
        self.runtime = runtime
        let folder = (settings.file as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The log is checkpointed back into the file every 256 pages
            // (1 MB) and cut back after: the size limit holds for both.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 256")
            try db.execute(sql: "PRAGMA journal_size_limit = 1048576")
        }
        database = try DatabaseQueue(path: settings.file, configuration: configuration)
        try database.writeWithoutTransaction { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        let fileID = try database.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0 }
        let tables = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0 }
        guard fileID == RecordingSchema.applicationID || tables == 0 else {
            throw ChatError(.invalidArgument, "\(settings.file) is not a diagnostics file: name another file in the diagnostics settings")
        }
        try RecordingSchema.migrator.migrate(database)
        let redactor = Redactor()
        _ = redactor.placeholder(for: apiKey, kind: "secret")
        state = State(redactor: redactor)
        let now = runtime.now.milliseconds
        monotonicOrigin = runtime.monotonicClock.now
        let session = try database.write { db -> Int64 in
            try db.execute(
                sql: """
                    INSERT INTO session (uuid, name, created, tool_version, seed, mode, server_url, kind, platform)
                    VALUES (?, ?, ?, ?, 0, 'field', NULL, 'app', ?)
                    """,
                arguments: [
                    UUID().uuidString.lowercased(), settings.appName, SQLiteTime.string(milliseconds: now),
                    "ChatSDK \(ChatClient.sdkVersion)", settings.device,
                ])
            return db.lastInsertedRowID
        }
        state.session = session
    }

    // MARK: What the app does, what the client says, what crosses the wire

    /// A call of the public API: its text for people in `step.input`
    /// (`sendMessage(.text("hi"), in: "c-1")`), the value itself as JSON in
    /// `step.call`, both redacted. Its secrets must already be placeholders
    /// (``secret(_:)``) or patterns the redactor knows (JWTs, backend tokens).
    package func call(_ call: AppCall) {
        let json = call.json
        write { state, db in
            state.step += 1
            state.eventSeq = 0
            let (wall, monotonic) = times()
            // Prepared once per connection (GRDB's cache): preparing it for
            // every record cost more than the commit (issue 27's callgrind).
            try db.cachedStatement(
                sql: """
                    INSERT INTO step (session_id, number, input, output, status, virtual_time, wall_time, wall_us, call, monotonic_time)
                    VALUES (?, ?, ?, '', 'ok', ?, ?, 0, ?, ?)
                    """
            ).execute(
                arguments: [
                    state.session, state.step, state.redactor.redact(call.text), wall, SQLiteTime.string(milliseconds: wall),
                    json.map(state.redactor.redact), monotonic,
                ])
        }
    }

    /// Something the client told the app, or a watcher's emission: its
    /// first word in `event.source` (`client.session`, `w1`, `m-3:`), its
    /// text in `event.text`, the value itself as JSON in `event.value`,
    /// text and value redacted.
    package func event(_ event: AppEvent) {
        let (source, text, json) = (event.source, event.text, event.json)
        write { state, db in
            // Before the first call (none is: the client's creation is one), nothing to hang it on.
            guard state.step > 0 else { return }
            state.eventSeq += 1
            let (wall, monotonic) = times()
            try db.cachedStatement(
                sql: """
                    INSERT INTO event (session_id, step, seq, virtual_time, source, text, value, monotonic_time)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            .execute(arguments: [
                state.session, state.step, state.eventSeq, wall, source, state.redactor.redact(text), json.map(state.redactor.redact),
                monotonic,
            ])
        }
    }

    /// What crossed the wire (the tape recording transport's sink), at the
    /// entry's time on the wall clock (when it crossed) and at the moment it
    /// is written on the monotonic one (the sink is called as it crosses).
    package func traffic(_ entry: TrafficEntry) {
        write { state, db in
            state.trafficSeq += 1
            let kind = entry.kind.redacted(state.redactor.redact)
            let body = entry.body.map { content($0, state.redactor) }
            let wall = entry.time.milliseconds
            try db.cachedStatement(
                sql: """
                    INSERT INTO traffic (
                        session_id, seq, step, virtual_time, wall_time, channel, direction, summary, body, device_id, origin, exchange, kind,
                        monotonic_time)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    state.session, state.trafficSeq, state.step > 0 ? state.step : nil, wall, SQLiteTime.string(milliseconds: wall),
                    entry.channel.rawValue, entry.direction.rawValue, kind.summary, body, entry.origin.label, entry.origin.column,
                    entry.exchange, kind.json,
                    monotonicTime(),
                ])
        }
    }

    /// The placeholder that stands for `value` in everything recorded from
    /// now on (an app-issued token, a signature, a header's value), to write
    /// in a call's text instead of the value.
    package func secret(_ value: String) -> String {
        lock.withLock { state.redactor.placeholder(for: value, kind: "secret") }
    }

    /// A message's text as the settings keep it: in clear, or its length
    /// and digest (``ContentRedaction``).
    package func text(_ text: String) -> String {
        settings.content == .redacted ? ContentRedaction.summary(of: text) : text
    }

    /// Marks the session ended (the client shut down), on the wall clock.
    package func finish() {
        write { state, db in
            try db.execute(
                sql: "UPDATE session SET ended = ? WHERE id = ?",
                arguments: [SQLiteTime.string(milliseconds: runtime.now.milliseconds), state.session])
        }
    }

    // MARK: Clocks

    /// Now on the wall clock (ms since the Unix epoch) and on the monotonic
    /// one (ms since the session began), read in record order (under the lock).
    private func times() -> (wall: Int64, monotonic: Int64) {
        (runtime.now.milliseconds, monotonicTime())
    }

    private func monotonicTime() -> Int64 {
        runtime.monotonicClock.now.milliseconds - monotonicOrigin.milliseconds
    }

    // MARK: Export

    /// A consistent copy of the whole file at `path`, in one file (no log beside it).
    package func export(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ChatError(.invalidArgument, "\(path) already exists: choose another file name or remove it")
        }
        do {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [path])
            }
            let copy = try DatabaseQueue(path: path)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch let error as DatabaseError {
            throw ChatError(.invalidArgument, "cannot write \(path): \(error.message ?? "\(error.resultCode)")")
        }
    }

    // MARK: Writing

    /// Runs `body` as one transaction, in record order; prunes now and then.
    private func write(_ body: (inout State, Database) throws -> Void) {
        lock.withLock {
            guard !state.failed else { return }
            do {
                try database.write { db in try body(&state, db) }
                state.writes += 1
                if state.writes % Self.pruneInterval == 0 { try prune(state) }
            } catch {
                state.failed = true
            }
        }
    }

    /// Drops records older than `maxAge` (by the device's wall clock), then
    /// the oldest written while the file's used pages exceed `maxBytes`.
    /// The current step stays (events hang on it).
    private func prune(_ state: State) throws {
        let oldest = runtime.now.milliseconds - settings.maxAge.wholeMilliseconds
        try database.write { db in
            try Self.drop(before: oldest, keeping: state, db)
            var passes = 0
            while try Self.usedBytes(db) > settings.maxBytes, passes < 8 {
                passes += 1
                // The oldest quarter of the calls, in the order they were
                // written: not by their times, which a device whose date
                // was set back has written out of order (the newest would
                // go first).
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM step") ?? 0
                guard count > 1,
                    let bound = try Row.fetchOne(
                        db, sql: "SELECT session_id, number FROM step ORDER BY session_id, number LIMIT 1 OFFSET ?",
                        arguments: [max(1, count / 4)])
                else { break }
                try Self.drop(beforeStep: (bound["session_id"], bound["number"]), keeping: state, db)
            }
            try db.execute(
                sql: "DELETE FROM session WHERE id <> ? AND NOT EXISTS (SELECT 1 FROM step WHERE session_id = session.id)",
                arguments: [state.session])
        }
    }

    private static func drop(before time: Int64, keeping state: State, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM event WHERE virtual_time < ? AND NOT (session_id = ? AND step = ?)",
            arguments: [time, state.session, state.step])
        try db.execute(
            sql: """
                DELETE FROM step WHERE virtual_time < ? AND NOT (session_id = ? AND number = ?)
                AND NOT EXISTS (SELECT 1 FROM event WHERE event.session_id = step.session_id AND event.step = step.number)
                """,
            arguments: [time, state.session, state.step])
        try db.execute(sql: "DELETE FROM traffic WHERE virtual_time < ?", arguments: [time])
    }

    /// Drops what was written before step `bound` (a session's id and a
    /// step's number: the order of writing), the current step kept.
    private static func drop(beforeStep bound: (session: Int64, number: Int64), keeping state: State, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM event WHERE (session_id, step) < (?, ?) AND NOT (session_id = ? AND step = ?)",
            arguments: [bound.session, bound.number, state.session, state.step])
        try db.execute(
            sql: """
                DELETE FROM step WHERE (session_id, number) < (?, ?) AND NOT (session_id = ? AND number = ?)
                AND NOT EXISTS (SELECT 1 FROM event WHERE event.session_id = step.session_id AND event.step = step.number)
                """,
            arguments: [bound.session, bound.number, state.session, state.step])
        try db.execute(
            sql: "DELETE FROM traffic WHERE session_id < ? OR (session_id = ? AND (step IS NULL OR step < ?))",
            arguments: [bound.session, bound.session, bound.number])
    }

    /// Bytes of the file's pages in use (its free pages are reused first).
    private static func usedBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        return (pages - free) * size
    }

    private func content(_ body: Data, _ redactor: Redactor) -> Data {
        let redacted = redactor.redact(body: body)
        return settings.content == .redacted ? ContentRedaction.redact(json: redacted) : redacted
    }
}
