import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLKit's view of a ``SQLiteHandle`` (queries serialised with SQLiteKit's dialect), and its
/// ``StatementDatabase`` statements passed straight to the handle.
///
/// With a `thread`, statements run on that ``SQLiteThread``: called there (inside
/// `withTaskExecutorPreference`), a statement runs at once, without suspending; called elsewhere,
/// it moves to the thread for the statement and back. Without one, the caller holds the handle
/// alone (a reader lent by ``SQLiteReaders``) and statements run on the caller's thread.
struct SQLiteHandleDatabase: StatementDatabase {
    let handle: SQLiteHandle
    let thread: SQLiteThread?
    let logger: Logger
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    /// Queries are not logged: their binds include token digests and password hashes.
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        let encoder = SQLiteDataEncoder()
        let values = try binds.map { try encoder.encode($0) }
        let run: @Sendable () throws -> Void = { [handle] in
            try handle.execute(sql, values) { columns, values in
                onRow(SQLiteValuesRow(columns: columns, values: values))
            }
        }
        if let thread, !thread.isCurrent {
            try await thread.perform(run)
        } else {
            try run()
        }
    }

    func rows(_ sql: String, _ values: [SQLValue]) async throws -> [StatementRow] {
        if let thread, !thread.isCurrent { return try await thread.perform { [handle] in try handle.rows(sql, values) } }
        return try handle.rows(sql, values)
    }
}

/// One result row: column names and values, decoded with SQLiteKit's decoder.
private struct SQLiteValuesRow: SQLRow {
    var columns: [String]
    var values: [SQLiteData]

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func decodeNil(column: String) throws -> Bool {
        value(column).map { $0 == .null } ?? true
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = value(column) else { throw MissingColumnError(column: column) }
        return try SQLiteDataDecoder().decode(D.self, from: value)
    }

    private func value(_ column: String) -> SQLiteData? {
        columns.firstIndex(of: column).map { values[$0] }
    }
}

/// A query asked a row for a column the query does not return.
struct MissingColumnError: Error, CustomStringConvertible {
    var column: String
    var description: String { "no column \(column) in the result" }
}
