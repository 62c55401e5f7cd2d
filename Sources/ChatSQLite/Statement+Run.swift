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
        let code: Int32
        do {
            code = try bindAndStep(values[...], from: 1)
        } catch {
            sqlite3_clear_bindings(statement)
            throw error
        }
        sqlite3_reset(statement)
        // Texts and blobs are bound where they lie: none is left bound after.
        sqlite3_clear_bindings(statement)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    /// Binds `values` from parameter `index` on, then steps the statement.
    /// A text or a blob is bound where it lies (`SQLITE_STATIC`), as GRDB's
    /// own `execute` binds, and the rest is bound and the statement stepped
    /// while it is valid: SQLite neither copies it nor frees a copy, and a
    /// text is not copied into a C string first (a text bind took ~1 k
    /// instructions that way, and a recorded send binds about 40; issue 31).
    private func bindAndStep(_ values: ArraySlice<BoundValue>, from index: Int32) throws -> Int32 {
        let statement = sqliteStatement
        var index = index
        var rest = values
        while let value = rest.popFirst() {
            let code: Int32
            switch value {
            case .int(let number): code = sqlite3_bind_int64(statement, index, number)
            case .null: code = sqlite3_bind_null(statement, index)
            case .text(var text):
                return try text.withUTF8 { utf8 in
                    try check(Self.bind(utf8, to: statement, at: index))
                    return try bindAndStep(rest, from: index + 1)
                }
            case .blob(let data):
                return try data.withUnsafeBytes { bytes in
                    try check(sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), nil))
                    return try bindAndStep(rest, from: index + 1)
                }
            }
            try check(code)
            index += 1
        }
        return sqlite3_step(statement)
    }

    /// Binds UTF-8 `text` in place. It ends at its first NUL, as SQLite
    /// reads the C string GRDB binds; an empty text is `''`, not NULL.
    private static func bind(_ text: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement, at index: Int32) -> Int32 {
        guard let base = text.baseAddress, !text.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
        let length = memchr(base, 0, text.count).map { UnsafeRawPointer(base).distance(to: $0) } ?? text.count
        return base.withMemoryRebound(to: CChar.self, capacity: text.count) {
            sqlite3_bind_text(statement, index, $0, Int32(length), nil)
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// SQLite copies a bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))),
            sql: sql)
    }
}
