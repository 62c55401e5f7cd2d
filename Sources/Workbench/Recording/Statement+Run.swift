import Foundation
import GRDB
import GRDBSQLite

/// One value bound to a statement's parameter by ``Statement/run(_:)``.
enum BoundValue {
    case int(Int64)
    case text(String)
    case blob(Data)
    case null

    /// `.int`, or `.null` for nil.
    static func int(_ number: Int?) -> BoundValue { number.map { .int(Int64($0)) } ?? .null }

    /// `.text`, or `.null` for nil.
    static func text(_ text: String?) -> BoundValue { text.map { .text($0) } ?? .null }
}

extension Statement {
    /// Runs a statement that returns no row with `values` bound in order,
    /// through SQLite's own calls on the statement GRDB prepared and caches.
    /// A recorded step inserts a row per step and per event, and GRDB's
    /// `execute(arguments:)` (arguments built as existentials, checked,
    /// then bound) cost about as much as SQLite's work for the row
    /// (issue 31: recording added 55 k instructions to a `clock` step, 29 k
    /// of them SQLite's). Errors are GRDB's `DatabaseError`, as `execute`
    /// throws them.
    func run(_ values: BoundValue...) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .int(let number): sqlite3_bind_int64(statement, index, number)
                case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
                case .blob(let data):
                    data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
                case .null: sqlite3_bind_null(statement, index)
                }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    /// SQLite copies a bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))),
            sql: sql)
    }
}
