import Foundation
import SQLKit

/// The `factor_failures` table: the failure counter and lock of one factor of one username. Each
/// statement is one atomic upsert or update, so that attempts racing on several instances count
/// exactly; the numbers it applies (threshold, duration, escalation) are ``FactorLockout``'s.
enum FactorFailureTable {
    /// A counter as an attempt's reservation left it.
    struct Reserved: Sendable {
        /// The attempt's number in the current run of failures.
        var failures: Int
        /// When the factor is locked: the end of the lock, in milliseconds since 1970.
        var lockedUntil: Int64?
        /// The database's now, in milliseconds since 1970, as the statement saw it.
        var now: Int64
    }

    /// Counts one more attempt unless the factor is locked (a lock that ended, or a run idle for
    /// `window` milliseconds, starts a new run).
    static func reserve(
        _ db: any StatementDatabase, usernameKey: String, factor: FactorLockout.Factor, now: any SQLExpression, window: Int64
    ) async throws -> Reserved {
        let row = try await db.raw("""
            INSERT INTO factor_failures (username_key, factor, failures, locked_until, last_attempt_at)
            VALUES (\(bind: usernameKey), \(bind: factor.rawValue), 1, NULL, \(now))
            ON CONFLICT (username_key, factor) DO UPDATE SET
                failures = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.failures
                                WHEN factor_failures.locked_until IS NOT NULL THEN 1
                                WHEN factor_failures.last_attempt_at <= \(now) - \(bind: window) THEN 1
                                ELSE factor_failures.failures + 1 END,
                locked_until = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.locked_until
                                    ELSE NULL END,
                last_attempt_at = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.last_attempt_at
                                       ELSE \(now) END
            RETURNING failures, locked_until, \(now) AS now_ms
            """).first()
        guard let row else { throw CorruptRowError(column: "factor_failures") }
        return Reserved(failures: try row.decode(column: "failures", as: Int.self),
                        lockedUntil: try row.decode(column: "locked_until", as: Int64?.self),
                        now: try row.decode(column: "now_ms", as: Int64.self))
    }

    /// Records a failed attempt's verdict: when `locks`, the factor locks until `lockUntil`, or
    /// until `forever` once this is lockout number `escalatesAt` in a row. Returns whether a row
    /// was there to update.
    static func recordFailure(
        _ db: any StatementDatabase, usernameKey: String, factor: FactorLockout.Factor, locks: Bool, escalatesAt: Int,
        lockUntil: any SQLExpression, forever: Int64
    ) async throws -> Bool {
        try await db.raw("""
            UPDATE factor_failures SET
                lockouts = CASE WHEN \(bind: locks) AND locked_until IS NULL THEN lockouts + 1 ELSE lockouts END,
                locked_until = CASE WHEN NOT \(bind: locks) OR locked_until IS NOT NULL THEN locked_until
                                    WHEN lockouts + 1 >= \(bind: escalatesAt) THEN \(bind: forever)
                                    ELSE \(lockUntil) END
            WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)
            RETURNING lockouts
            """).first() != nil
    }

    /// Deletes a factor's counter (after a success, or a new secret).
    static func clear(_ db: any StatementDatabase, usernameKey: String, factor: FactorLockout.Factor) async throws {
        try await db.raw("DELETE FROM factor_failures WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)").run()
    }

    /// Deletes the counters whose lock ended by `now`, or whose run has been idle for `window`
    /// milliseconds (a PIN's, only if it never locked: its lockouts escalate); returns how many.
    static func purge(_ db: any StatementDatabase, now: Int64, window: Int64) async throws -> Int {
        try await db.raw("""
            DELETE FROM factor_failures
            WHERE ((locked_until IS NOT NULL AND locked_until <= \(bind: now))
                   OR (locked_until IS NULL AND last_attempt_at <= \(bind: now - window)))
              AND (factor = 'password' OR lockouts = 0)
            RETURNING username_key
            """).all().count
    }
}
