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
