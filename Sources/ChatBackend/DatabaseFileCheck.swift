import ChatCore
import Foundation
import GRDB

/// What `serve` checks of its database file before it writes a byte to it
/// (S4, issue 26): that it is new, empty, or a chatbench database, and that its
/// pages read back (SQLite's `quick_check`). Another program's SQLite file is
/// refused untouched (no WAL switch, no migrations table), and a damaged one
/// is refused instead of answering 500 to every request.
package enum DatabaseFileCheck {
    /// Why a file is refused; its description is the one line `serve` prints.
    package struct Refusal: Error, CustomStringConvertible, Equatable {
        package let description: String
    }

    /// Checks the file at `path` (read-only). A missing or empty file passes:
    /// it becomes a new database. `integrity`: also read every page
    /// (`quick_check`, which takes time in proportion to the file).
    package static func check(_ path: String, integrity: Bool = true) throws(Refusal) {
        let migrations = BackendSchema.migrator.migrations
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes else { return }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw Refusal(description: "\(path) is a folder, not a database file")
        }
        guard let size = attributes[.size] as? NSNumber, size.int64Value > 0 else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Refusal(description: "\(path) cannot be read")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw Refusal(description: "\(path) is not a SQLite database (its first bytes are not SQLite's header)")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                if tables.isEmpty { return }
                guard tables.contains("grdb_migrations") else {
                    throw Refusal(
                        description: "\(path) is another program's SQLite database (tables \(list(tables))); "
                            + "chatbench serve opens only its own, or a new file")
                }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                let unknown = applied.filter { !migrations.contains($0) }
                guard unknown.isEmpty, applied.contains(migrations[0]) else {
                    let names = unknown.isEmpty ? "none of chatbench's" : list(unknown)
                    throw Refusal(
                        description: "\(path) is not a chatbench database (its migrations: \(names)); "
                            + "it may be another program's or a newer chatbench's")
                }
                guard integrity else { return }
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
                guard problems == ["ok"] else {
                    throw Refusal(
                        description: "\(path) is damaged (SQLite's quick_check: \(problems.joined(separator: "; ").prefix(300))); "
                            + "restore it from a backup")
                }
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            throw Refusal(
                description: "\(path) is damaged (SQLite: \(error.message ?? "\(error.resultCode)")); restore it from a backup")
        } catch let error as DatabaseError {
            throw Refusal(description: "\(path) cannot be read as a database (\(error.resultCode): \(error.message ?? "no message"))")
        } catch {
            throw Refusal(description: "\(path) cannot be read as a database (\(error))")
        }
    }

    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(5).joined(separator: ", ")
        return names.count > 5 ? "\(shown)… (\(names.count) in all)" : shown
    }
}
