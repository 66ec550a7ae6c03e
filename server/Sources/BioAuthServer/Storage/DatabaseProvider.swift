import SQLKit

/// Which SQL dialect a database speaks, for the few places where SQLite and PostgreSQL differ:
/// column types, and the account core's completion of every sign-in, which PostgreSQL runs as one
/// statement (``SignInCompletionStatement``). Other queries are written once, in the common subset
/// (`INSERT … ON CONFLICT`, `UPDATE/DELETE … RETURNING`).
package enum SQLFlavor: Sendable {
    case sqlite
    case postgres

    /// The column type for raw bytes.
    var bytesType: String {
        switch self {
        case .sqlite: "BLOB"
        case .postgres: "BYTEA"
        }
    }

    /// A 64-bit integer primary key the database fills in increasing order.
    var sequencePrimaryKey: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY AUTOINCREMENT"
        case .postgres: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        }
    }
}

/// Access to the server's SQL database.
///
/// Every multi-statement change goes through ``transaction(_:)`` so that it lands whole or not at
/// all; a single statement that writes uses ``withDatabase(_:)``, and reads outside a transaction
/// use ``read(_:)``.
package protocol DatabaseProvider: Sendable {
    /// The dialect, for migrations.
    var flavor: SQLFlavor { get }

    /// Runs `body` with a database handle; each statement commits on its own.
    func withDatabase<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T

    /// Runs `body`, which only reads, beside the writes: it sees every change whose
    /// ``transaction(_:)`` or ``withDatabase(_:)`` has returned, and may not see one still
    /// running. Its statements are not one snapshot: each may see a later commit than the last.
    /// For reads that decide nothing inside a transaction (the ones that do belong in it).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// The commit is durable (on disk) before this returns.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T

    /// Whether `error` is a UNIQUE (or primary-key) constraint violation, so that a race that
    /// slips past a "does it exist?" check becomes the contract's 409, not a 500.
    func isUniqueViolation(_ error: any Error) -> Bool

    /// Closes every connection.
    func shutdown() async throws
}
