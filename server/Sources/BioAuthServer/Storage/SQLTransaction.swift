import Logging
import SQLKit

/// One transaction on one connection, the same for every database: `begin`, then `body`, then
/// COMMIT; ROLLBACK when `body` (or the COMMIT) throws, and the original error is rethrown.
///
/// - Parameters:
///   - begin: The opening statement (`BEGIN IMMEDIATE` on SQLite takes the write lock up front).
///   - describe: How a rollback failure is logged (PostgreSQL's errors need masking).
///   - connectionLost: Whether an error means the connection is gone: the database then rolls
///     back itself, and no ROLLBACK is sent (PostgresNIO may never answer a statement written to
///     a closed connection).
func runTransaction<T: Sendable>(
    on db: any StatementDatabase,
    begin: String,
    logger: Logger,
    describe: (any Error) -> String = { "\($0)" },
    _ body: @Sendable (any StatementDatabase) async throws -> T,
    connectionLost: (any Error) -> Bool = { _ in false }
) async throws -> T {
    try await db.raw(SQLQueryString(begin)).run()
    do {
        let result = try await body(db)
        try await db.raw("COMMIT").run()
        return result
    } catch {
        guard !connectionLost(error) else { throw error }
        do {
            try await db.raw("ROLLBACK").run()
        } catch let rollbackError {
            logger.error("rollback failed", metadata: ["error": "\(describe(rollbackError))"])
        }
        throw error
    }
}
