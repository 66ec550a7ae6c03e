import Foundation
import SQLKit

/// "Now", in milliseconds since 1970, for statements whose verdict must not depend on which
/// instance runs them: the database's own clock, read inside the statement.
///
/// Lock expiry is decided this way, and so is the purge of spent challenges, so several instances
/// whose clocks drift apart still agree on when a lock ends and on when a challenge may be
/// forgotten. A test that moves time gets its own clock bound instead: the database's clock
/// cannot be moved.
struct DatabaseClock: Sendable {
    let flavor: SQLFlavor
    let time: TimeSource

    /// SQLite's now: 'now' is the same for every call within one `sqlite3_step`.
    static let sqliteNow = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
    /// PostgreSQL's now: `statement_timestamp()` is fixed for the statement.
    static let postgresNow = "CAST(EXTRACT(EPOCH FROM statement_timestamp()) * 1000 AS BIGINT)"

    /// Whether the database's clock stands for the server's (always, but in a test that moves time).
    var usesDatabaseClock: Bool { time.isSystemClock }

    /// The expression for now, stable within one statement.
    var now: any SQLExpression {
        guard usesDatabaseClock else { return SQLBind(time.now().millisecondsSince1970) }
        return SQLRaw(flavor == .sqlite ? Self.sqliteNow : Self.postgresNow)
    }

    /// Now, as the database sees it (the test's clock when it moves time).
    func read(_ db: any StatementDatabase) async throws -> Int64 {
        guard let row = try await db.raw("SELECT \(now) AS now_ms").first() else { throw CorruptRowError(column: "now_ms") }
        return try row.decode(column: "now_ms", as: Int64.self)
    }
}
