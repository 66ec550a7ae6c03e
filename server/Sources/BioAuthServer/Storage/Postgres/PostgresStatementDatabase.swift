import Logging
import NIOCore
import PostgresKit
import SQLKit

/// One pooled PostgreSQL connection as the services see it: SQLKit's view of it
/// (PostgresKit's, with query logging off), and ``StatementDatabase``'s statements sent straight
/// through PostgresNIO with natively encoded values, one round trip each.
struct PostgresStatementDatabase: StatementDatabase {
    let connection: PostgresConnection
    private let sql: any SQLDatabase

    init(connection: PostgresConnection) {
        self.connection = connection
        self.sql = connection.sql(queryLogLevel: nil)
    }

    var logger: Logger { sql.logger }
    var eventLoop: any EventLoop { sql.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { sql.version }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        do {
            try checkOpen()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return sql.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try checkOpen()
        try await sql.execute(sql: query, onRow)
    }

    func rows(_ text: String, _ values: [SQLValue]) async throws -> [StatementRow] {
        try checkOpen()
        var rows: [StatementRow] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: text, binds: Self.bindings(values)), logger: logger) {
            rows.append(StatementRow(values: try row.map(Self.value)))
        }
        return rows
    }

    func rows<Statement: PreparedStatementText>(_ statement: Statement.Type, _ values: [SQLValue]) async throws -> [StatementRow] {
        try checkOpen()
        var rows: [StatementRow] = []
        for try await row in try await connection.execute(Prepared<Statement>(values: values), logger: logger) {
            rows.append(row)
        }
        return rows
    }

    /// Returns once PostgreSQL has committed the statements this connection ran outside a
    /// transaction, and throws if it did not.
    ///
    /// PostgreSQL commits such a statement when it reads the Sync that ends its round trip, after
    /// its rows and CommandComplete; ReadyForQuery follows the commit. It holds all of them in its
    /// output buffer until ReadyForQuery, except when a shutdown ends the session before the
    /// commit: the error it then sends flushes the buffered answer, and the change is lost.
    /// PostgresNIO ends a query's rows at CommandComplete and offers no wait for ReadyForQuery, but
    /// starts the next query only after it: an empty query (no statement; PostgreSQL answers
    /// EmptyQueryResponse without parsing, planning or writing anything) proves the commit, and
    /// fails if the connection died first.
    func awaitImplicitCommit() async throws {
        try checkOpen()
        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: ""), logger: logger) {}
    }

    /// PostgresNIO drops a statement written to a connection already closing, and never answers
    /// it: a statement on a connection known to be closed fails here instead.
    private func checkOpen() throws {
        guard !connection.isClosed else { throw DatabaseUnavailable(reason: "the connection closed") }
    }

    /// A ``PreparedStatementText`` as PostgresNIO prepares it: once per connection, under the
    /// text type's name.
    private struct Prepared<Text: PreparedStatementText>: PostgresPreparedStatement {
        typealias Row = StatementRow
        static var name: String { Text.name }
        static var sql: String { Text.sql }
        static var bindingDataTypes: [PostgresDataType] {
            Text.parameters.map { type in
                switch type {
                case .integer: .int8
                case .text: .text
                case .bytes: .bytea
                }
            }
        }
        var values: [SQLValue]

        func makeBindings() throws -> PostgresBindings { PostgresStatementDatabase.bindings(values) }

        func decodeRow(_ row: PostgresRow) throws -> StatementRow {
            StatementRow(values: try row.map(PostgresStatementDatabase.value))
        }
    }

    private static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }

    /// A cell as one of the kinds the server stores: integers, text (and `bool` as 0 or 1), bytes.
    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .bytes(Array(buffer: try cell.decode(ByteBuffer.self)))
        default: return .text(try cell.decode(String.self))
        }
    }
}
