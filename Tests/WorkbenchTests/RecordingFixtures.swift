import ChatTestSupport
import GRDB
import Testing

@testable import ChatSDK
@testable import Workbench

/// Recordings the tests of recorded events and traffic read: a script
/// recorded as the workbench records it, and a file of an older schema with
/// events or traffic written by hand, as a build of that time wrote them.
enum RecordingFixtures {
    /// `lines` run and recorded in a new database in `folder`: its store,
    /// and the session recorded.
    static func record(_ lines: [String], in folder: TemporaryFolder) throws -> (store: RecordingStore, session: RecordedSession) {
        let store = try RecordingStore(path: folder.url.appendingPathComponent("s.sqlite").path)
        let recorder = try Recorder(store: store, workbench: try WorkbenchSession(options: WorkbenchOptions()), kind: .script)
        for line in lines {
            _ = recorder.execute(line)
        }
        recorder.finish()
        return (store, try #require(try store.sessions().first))
    }

    /// A file at `path` of the recording schema up to `schema` (`v8`),
    /// holding session 1 and its step 1 with `events`, in order: each an
    /// event's source and text and, when given (from v9), its kind's JSON.
    static func file(at path: String, schema: String, events: [(source: String, text: String, kind: String?)]) throws {
        try file(at: path, schema: schema, mode: "embedded") { db in
            try db.execute(
                sql: """
                    INSERT INTO step (session_id, number, input, output, status, virtual_time, wall_time, wall_us)
                    VALUES (1, 1, 'clock', '', 'ok', 0, '2026-11-24 00:00:00.001', 0)
                    """)
            for (seq, event) in events.enumerated() {
                if let kind = event.kind {
                    try db.execute(
                        sql: "INSERT INTO event (session_id, step, seq, virtual_time, source, text, kind) VALUES (1, 1, ?, 0, ?, ?, ?)",
                        arguments: [seq + 1, event.source, event.text, kind])
                } else {
                    try db.execute(
                        sql: "INSERT INTO event (session_id, step, seq, virtual_time, source, text) VALUES (1, 1, ?, 0, ?, ?)",
                        arguments: [seq + 1, event.source, event.text])
                }
            }
        }
    }

    /// A file at `path` of the recording schema up to `schema` (`v7`),
    /// holding session 1 (of `mode`) and its `traffic` rows, in order, each
    /// given by its columns (`session_id`, `seq`, `virtual_time` and
    /// `wall_time` are filled in: a row's index is its ms).
    static func file(
        at path: String, schema: String, mode: String, traffic: [[String: (any DatabaseValueConvertible)?]]
    ) throws {
        try file(at: path, schema: schema, mode: mode) { db in
            for (index, row) in traffic.enumerated() {
                let columns = row.keys.sorted()
                try db.execute(
                    sql: """
                        INSERT INTO traffic (session_id, seq, virtual_time, wall_time, \(columns.joined(separator: ", ")))
                        VALUES (1, ?, ?, '2026-11-24 00:00:00.001'\(String(repeating: ", ?", count: columns.count)))
                        """,
                    arguments: StatementArguments([index + 1, index] + columns.map { row[$0] ?? nil }))
            }
        }
    }

    /// A file at `path` of the recording schema up to `schema`, holding
    /// session 1 (of `mode`) and what `rows` writes, as a build of that time wrote it.
    private static func file(at path: String, schema: String, mode: String, rows: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: path)
        try RecordingSchema.migrator.migrate(queue, upTo: schema)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (id, uuid, created, tool_version, seed, mode, kind, platform)
                    VALUES (1, 'u1', '2026-11-24 00:00:00.000', 'test', 1, ?, 'script', 'linux')
                    """, arguments: [mode])
            try rows(db)
        }
        try queue.close()
    }
}
