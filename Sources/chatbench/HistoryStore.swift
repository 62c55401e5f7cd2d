import Foundation
import GRDB

/// The REPL's authoritative history: a SQLite file of lines with the time
/// they were entered. The line editor is loaded from it at start.
///
/// Lines arrive already redacted (SPEC W6): the store writes what it is given.
final class HistoryStore: Sendable {
    /// The history file's name inside the state directory.
    static let fileName = "history.sqlite"
    /// How many lines the file keeps; older ones are dropped when it opens.
    static let retainedLines = 10_000

    private let database: DatabaseQueue

    /// Opens (creating if needed) the history in `directory`.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        // Several REPLs may share one history file.
        configuration.busyMode = .timeout(2)
        database = try DatabaseQueue(
            path: directory.appendingPathComponent(Self.fileName).path, configuration: configuration)
        try Self.migrator.migrate(database)
        try database.write { db in
            try db.execute(
                sql: "DELETE FROM entry WHERE id <= (SELECT MAX(id) FROM entry) - ?",
                arguments: [Self.retainedLines])
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "entry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("line", .text).notNull()
                t.column("time", .datetime).notNull()
            }
        }
        return migrator
    }

    /// The last `limit` lines, oldest first.
    func recentLines(limit: Int = 1000) throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT line FROM entry ORDER BY id DESC LIMIT ?", arguments: [limit]
            ).reversed()
        }
    }

    /// Appends `line` unless it repeats the last line stored; returns whether
    /// it was stored.
    @discardableResult
    func append(_ line: String, at time: Date = Date()) throws -> Bool {
        try database.write { db in
            let last = try String.fetchOne(db, sql: "SELECT line FROM entry ORDER BY id DESC LIMIT 1")
            if last == line { return false }
            try db.execute(sql: "INSERT INTO entry (line, time) VALUES (?, ?)", arguments: [line, time])
            return true
        }
    }
}
