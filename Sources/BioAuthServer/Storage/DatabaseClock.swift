import Foundation
import SQLKit

/// "Now", in milliseconds since 1970, for statements whose verdict must not depend on which
/// instance runs them: the database's own clock, read inside the statement.
///
/// Lock expiry is decided this way, so several instances whose clocks drift apart still agree on
/// when a lock ends. A test that moves time gets its own clock bound instead: the database's clock
/// cannot be moved.
struct DatabaseClock: Sendable {
    let flavor: SQLFlavor
    let time: TimeSource

    /// The expression for now, stable within one statement.
    var now: any SQLExpression {
        guard time.isSystemClock else { return SQLBind(time.now().millisecondsSince1970) }
        switch flavor {
        // 'now' is the same for every call within one sqlite3_step.
        case .sqlite: return SQLRaw("CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)")
        // statement_timestamp() is fixed for the statement.
        case .postgres: return SQLRaw("CAST(EXTRACT(EPOCH FROM statement_timestamp()) * 1000 AS BIGINT)")
        }
    }
}
