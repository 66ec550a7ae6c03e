import NIOCore
import SQLiteNIO
// VaporCSQLite is sqlite-nio's internal C target, not one of its products: the SQLite that
// SQLiteKit already links, its symbols prefixed `sqlite_nio_`. It is imported (it cannot be
// declared) because the server drives SQLite's C API on its own thread: SQLiteNIO's public
// connection sends each statement through a thread pool and an event loop (``SQLiteThread`` says
// what that cost). GRDB.swift, available here as a product, keeps a serial writer and a
// statement cache too, and was weighed: it links the system's libsqlite3 (a second SQLite in the
// process beside SQLiteKit's, libsqlite3-dev on every build machine, Debian's 3.40.1 rather than
// the vendored 3.54.1), and its query API would replace SQLKit, which lets one SQL text serve
// SQLite and PostgreSQL. Fallback if sqlite-nio renames or drops the target: SQLiteNIO's public
// `SQLiteConnection` (correct and slower: the path this replaced), or GRDB's `DatabaseQueue`
// under an SQLKit `SQLDatabase`, as ``SQLiteHandleDatabase`` is over this handle.
import VaporCSQLite

/// One SQLite connection, driven through SQLite's C API: the writer's on one ``SQLiteThread``, a
/// reader's by the task it is lent to (``SQLiteReaders``).
///
/// It keeps every statement it has prepared (the server runs a few dozen distinct statements,
/// each thousands of times), so a statement is parsed once per connection, not once per request.
/// Not thread-safe: one caller at a time (SQLite's multi-thread mode, `SQLITE_OPEN_NOMUTEX`).
final class SQLiteHandle: @unchecked Sendable {
    private var connection: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// More distinct statements than this are prepared afresh each time instead of kept.
    private static let statementCacheLimit = 256
    /// SQLite's global state is set up once per process, before the first connection.
    private static let initialized: Int32 = sqlite_nio_sqlite3_initialize()

    /// Opens (creating if needed) the database file at `path`.
    init(path: String) throws {
        guard Self.initialized == SQLITE_OK else {
            throw SQLiteStatementError(code: Self.initialized, message: "cannot initialise SQLite")
        }
        // One caller at a time uses the connection, so SQLite's own locking of it (FULLMUTEX) is
        // not needed.
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var connection: OpaquePointer?
        let opened = sqlite_nio_sqlite3_open_v2(path, &connection, flags, nil)
        guard opened == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close(connection)
            throw SQLiteStatementError(code: opened, message: message)
        }
        self.connection = connection
    }

    /// Opens the database file at `path` and runs `settings` (PRAGMA statements) on it; closes it
    /// again if one of them fails.
    convenience init(path: String, settings: [String]) throws {
        try self.init(path: path)
        do {
            for setting in settings { try execute(setting, []) }
        } catch {
            try? close()
            throw error
        }
    }

    deinit {
        assert(connection == nil, "SQLiteHandle was not closed")
    }

    /// Runs one statement with `binds` for its `?` parameters and passes each result row to
    /// `onRow` as (column names, values).
    func execute(_ sql: String, _ binds: [SQLiteData], onRow: ([String], [SQLiteData]) throws -> Void = { _, _ in }) throws {
        var columns: [String]?
        try step(sql) { statement in
            for (index, value) in binds.enumerated() {
                try check(bind(value, at: Int32(index + 1), in: statement))
            }
        } onRow: { statement, count in
            if columns == nil {
                columns = (0..<count).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
            }
            try onRow(columns!, (0..<count).map { value(at: $0, in: statement) })
        }
    }

    /// Runs one statement with `values` for its `$1`, `$2`, … placeholders (``StatementDatabase``)
    /// and returns its rows.
    func rows(_ sql: String, _ values: [SQLValue]) throws -> [StatementRow] {
        var rows: [StatementRow] = []
        try step(sql) { statement in
            try checkPlaceholders(of: statement, count: values.count, sql: sql)
            for (index, value) in values.enumerated() {
                try check(bind(value, at: Int32(index + 1), in: statement))
            }
        } onRow: { statement, count in
            rows.append(StatementRow(values: (0..<count).map { statementValue(at: $0, in: statement) }))
        }
        return rows
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode). SQLite rolls a
    /// transaction back by itself after some errors (a full disk, an I/O error).
    var isInTransaction: Bool { sqlite_nio_sqlite3_get_autocommit(connection) == 0 }

    /// Rows inserted, updated or deleted on this connection since it opened, rolled back or not.
    var totalChanges: Int64 { sqlite_nio_sqlite3_total_changes64(connection) }

    /// Finalises every statement and closes the connection.
    func close() throws {
        guard let connection else { return }
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements = [:]
        try check(sqlite_nio_sqlite3_close(connection))
        self.connection = nil
    }

    /// Prepares `sql` (or takes its kept statement), lets `bindParameters` bind it, and steps it
    /// to the end, passing each row to `onRow` with its column count; then resets the statement
    /// and clears its bindings, so that no bound value outlives the call.
    private func step(
        _ sql: String,
        bindParameters: (OpaquePointer) throws -> Void,
        onRow: (OpaquePointer, Int32) throws -> Void
    ) throws {
        let (statement, isKept) = try prepared(sql)
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            if !isKept { sqlite_nio_sqlite3_finalize(statement) }
        }
        try bindParameters(statement)
        while true {
            let stepped = sqlite_nio_sqlite3_step(statement)
            switch stepped {
            case SQLITE_DONE:
                return
            case SQLITE_ROW:
                try onRow(statement, sqlite_nio_sqlite3_column_count(statement))
            default:
                try check(stepped)
            }
        }
    }

    /// The statement for `sql`, and whether it is kept for reuse (otherwise the caller finalises it).
    private func prepared(_ sql: String) throws -> (OpaquePointer, isKept: Bool) {
        if let statement = statements[sql] { return (statement, true) }
        var statement: OpaquePointer?
        let keep = statements.count < Self.statementCacheLimit
        try check(sqlite_nio_sqlite3_prepare_v3(connection, sql, -1, keep ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &statement, nil))
        guard let statement else {
            throw SQLiteStatementError(code: SQLITE_MISUSE, message: "no SQL statement in the query")
        }
        if keep { statements[sql] = statement }
        return (statement, keep)
    }

    private func bind(_ value: SQLiteData, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .blob(let bytes):
            bytes.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient)
            }
        case .null:
            sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    /// Refuses a statement whose placeholders are not exactly `$1` … `$count`, each first appearing
    /// in that order: SQLite numbers named parameters by first appearance, and values are bound by
    /// number.
    private func checkPlaceholders(of statement: OpaquePointer, count: Int, sql: String) throws {
        let parameters = Int(sqlite_nio_sqlite3_bind_parameter_count(statement))
        let ordered =
            parameters == count
            && (0..<count).allSatisfy { index in
                sqlite_nio_sqlite3_bind_parameter_name(statement, Int32(index + 1)).map { String(cString: $0) } == "$\(index + 1)"
            }
        guard ordered else {
            throw SQLiteStatementError(code: SQLITE_MISUSE, message: "placeholders of \(sql.prefix(60)) are not $1…$\(count) in order")
        }
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            sqlite_nio_sqlite3_bind_int64(statement, index, integer)
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .bytes(let bytes):
            bytes.withUnsafeBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient)
            }
        case .null:
            sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func statementValue(at column: Int32, in statement: OpaquePointer) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite_nio_sqlite3_column_int64(statement, column))
        case SQLITE_TEXT:
            return .text(sqlite_nio_sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite_nio_sqlite3_column_blob(statement, column), count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            // NULL; no column the server writes holds a float.
            return .null
        }
    }

    private func value(at column: Int32, in statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(SQLiteInt64(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            return .text(sqlite_nio_sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            let bytes = sqlite_nio_sqlite3_column_blob(statement, column)
            return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count)))
        default:
            return .null
        }
    }

    /// Throws the connection's error unless `code` is one of SQLite's non-error results.
    private func check(_ code: Int32) throws {
        guard code != SQLITE_OK && code != SQLITE_ROW && code != SQLITE_DONE else { return }
        let message = connection.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "connection closed"
        throw SQLiteStatementError(code: sqlite_nio_sqlite3_extended_errcode(connection), message: message)
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An error SQLite reported, with its extended result code.
struct SQLiteStatementError: Error, CustomStringConvertible {
    /// SQLite's extended result code, such as `SQLITE_CONSTRAINT_UNIQUE` (2067).
    var code: Int32
    var message: String
    var description: String { "SQLite error \(code): \(message)" }

    /// Whether a UNIQUE or PRIMARY KEY constraint refused the change.
    var isUniqueViolation: Bool {
        code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || code == 1555 /* SQLITE_CONSTRAINT_PRIMARYKEY */
    }
}
