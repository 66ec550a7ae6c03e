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
