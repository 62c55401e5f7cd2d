import Foundation
import GRDB
import GRDBSQLite

/// One value bound to a statement's parameter by ``GRDB/Statement/run(_:)``.
package enum BoundValue {
    case int(Int64)
    case text(String)
    case blob(Data)
    case null

    /// `.int`, or `.null` for nil.
    package static func int(_ number: Int?) -> BoundValue { number.map { .int(Int64($0)) } ?? .null }

    /// `.int`, or `.null` for nil.
    package static func int(_ number: Int64?) -> BoundValue { number.map { .int($0) } ?? .null }

    /// 1 or 0, as SQLite keeps a boolean.
    package static func bool(_ value: Bool) -> BoundValue { .int(value ? 1 : 0) }

    /// `.text`, or `.null` for nil.
    package static func text(_ text: String?) -> BoundValue { text.map { .text($0) } ?? .null }

    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .int(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        case .null: .null
        }
    }
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
    ///
    /// A statement that writes outside a transaction is a transaction of
    /// its own, and GRDB runs it (`execute(arguments:)`): GRDB tells its
    /// transaction observers of a commit only when it ran the statement that
    /// committed. Inside a transaction, its COMMIT tells them; what they are
    /// not told of is each row a statement run here changes
    /// (`databaseDidChange(with:)`), which no observer of this package asks
    /// for. `BEGIN` and `COMMIT` write nothing themselves (SQLite says they
    /// are read-only) and run here.
    package func run(_ values: BoundValue...) throws {
        let statement = sqliteStatement
        // Whatever the last step said (GRDB's `reset` would throw it again).
        sqlite3_reset(statement)
        if sqlite3_get_autocommit(sqlite3_db_handle(statement)) != 0, sqlite3_stmt_readonly(statement) == 0 {
            try execute(arguments: StatementArguments(values.map(\.databaseValue)))
            return
        }
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
