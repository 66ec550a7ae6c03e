import Foundation
import SQLKit

/// A database handle that also runs statements without SQLKit: fixed SQL text, typed values and
/// positional rows, with none of SQLKit's per-call serialisation or Codable binding.
///
/// The sign-in's hot path uses it (``SQLiteHandle`` keeps each text prepared; PostgreSQL gets one
/// round trip per statement); everything else goes through SQLKit. Placeholders are `$1`, `$2`, …,
/// PostgreSQL's form. SQLite reads `$1` as a named parameter and numbers parameters by first
/// appearance, so in every text `$1` must first appear before `$2`, and so on (``SQLiteHandle``
/// refuses a text that breaks this).
package protocol StatementDatabase: SQLDatabase {
    /// Runs `sql` with `values` for `$1`, `$2`, … and returns every row.
    func rows(_ sql: String, _ values: [SQLValue]) async throws -> [StatementRow]

    /// Runs a statement kept prepared on the connection (on PostgreSQL, prepared once per
    /// connection and then only bound and executed: no parse or plan per call).
    func rows<Statement: PreparedStatementText>(_ statement: Statement.Type, _ values: [SQLValue]) async throws -> [StatementRow]
}

/// The text of a statement the sign-in runs on every request, with its parameters' types, which
/// PostgreSQL must be told when it prepares the text (it would guess `integer` for `$1 = 1`).
package protocol PreparedStatementText: Sendable {
    /// The name PostgreSQL keeps it under on each connection: unique among these texts, and at
    /// most 63 bytes (PostgreSQL cuts longer names, which may then collide).
    static var name: String { get }
    /// The text, with `$1`, `$2`, … as ``StatementDatabase`` says.
    static var sql: String { get }
    /// The type of each parameter, `$1` first.
    static var parameters: [SQLType] { get }
}

/// The types a ``PreparedStatementText`` parameter may have.
package enum SQLType: Sendable {
    /// A 64-bit integer (`BIGINT`).
    case integer
    /// Text.
    case text
    /// Bytes (`BLOB`, `BYTEA`).
    case bytes
}

extension StatementDatabase {
    /// SQLite keeps every statement prepared already: the text alone will do.
    func rows<Statement: PreparedStatementText>(_ statement: Statement.Type, _ values: [SQLValue]) async throws -> [StatementRow] {
        try await rows(Statement.sql, values)
    }

    /// Runs a prepared statement and returns its rows.
    func rows<Statement: PreparedStatementText>(_ statement: Statement.Type, _ values: SQLValue...) async throws -> [StatementRow] {
        try await rows(statement, values)
    }

    /// Runs a prepared statement and returns its first row, if any.
    func first<Statement: PreparedStatementText>(_ statement: Statement.Type, _ values: SQLValue...) async throws -> StatementRow? {
        try await rows(statement, values).first
    }

    /// Runs `sql` and returns its rows.
    func rows(_ sql: String, _ values: SQLValue...) async throws -> [StatementRow] {
        try await rows(sql, values)
    }

    /// Runs `sql` and returns its first row, if any.
    func first(_ sql: String, _ values: SQLValue...) async throws -> StatementRow? {
        try await rows(sql, values).first
    }

    /// Runs `sql` for its effect.
    func run(_ sql: String, _ values: SQLValue...) async throws {
        _ = try await rows(sql, values)
    }
}

/// A value bound to, or read from, a ``StatementDatabase`` statement: the kinds both databases store.
package enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case null

    /// Text, or `NULL` for `nil`.
    static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// A time as milliseconds since 1970.
    static func time(_ date: Date) -> SQLValue { .integer(date.millisecondsSince1970) }

    /// Bytes from `Data`.
    static func bytes(_ data: Data) -> SQLValue { .bytes(Array(data)) }
}

/// One result row of a ``StatementDatabase`` statement, its values in the statement's column order.
package struct StatementRow: Sendable, Equatable {
    /// The values, by column position.
    var values: [SQLValue]

    /// The text in column `index`.
    func text(_ index: Int) throws -> String {
        guard case .text(let text) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return text
    }

    /// The text in column `index`, or `nil` for `NULL`.
    func optionalText(_ index: Int) throws -> String? {
        value(index) == .null ? nil : try text(index)
    }

    /// The integer in column `index`.
    func integer(_ index: Int) throws -> Int64 {
        guard case .integer(let integer) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return integer
    }

    /// The time (milliseconds since 1970) in column `index`.
    func date(_ index: Int) throws -> Date {
        Date(millisecondsSince1970: try integer(index))
    }

    /// The bytes in column `index`.
    func bytes(_ index: Int) throws -> Data {
        guard case .bytes(let bytes) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return Data(bytes)
    }

    /// The string-backed enum in column `index`.
    func enumeration<T: RawRepresentable>(_ index: Int, as _: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try text(index)) else { throw CorruptRowError(column: "#\(index)") }
        return value
    }

    private func value(_ index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }
}
