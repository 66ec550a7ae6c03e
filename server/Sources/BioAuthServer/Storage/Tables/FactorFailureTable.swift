import Foundation
import SQLKit

/// The `factor_failures` table: one secret factor's consecutive failures and locks for one
/// username. It stores what ``LockoutPolicy`` decides: each statement is one atomic upsert or
/// update, so that attempts racing on several instances count exactly, and lock times come from
/// the database's clock (``DatabaseClock``).
enum FactorFailureTable {
    /// Counts one more attempt unless the factor is locked, and returns the counter as it left it.
    static func reserve(
        _ db: any StatementDatabase,
        usernameKey: String,
        factor: LockoutPolicy.Factor,
        clock: DatabaseClock
    ) async throws -> LockoutPolicy.Counter {
        let now = clock.now
        let row = try await db.raw(
            """
            INSERT INTO factor_failures (username_key, factor, failures, lockouts, locked_until, last_attempt_at)
            VALUES (\(bind: usernameKey), \(bind: factor.rawValue), 1, 0, NULL, \(now))
            ON CONFLICT (username_key, factor) DO UPDATE SET
                failures = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.failures
                                ELSE factor_failures.failures + 1 END,
                last_attempt_at = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.last_attempt_at
                                       ELSE \(now) END
            RETURNING failures, lockouts, locked_until, \(now) AS now_ms
            """
        ).first()
        guard let row else { throw CorruptRowError(column: "factor_failures") }
        return LockoutPolicy.Counter(
            failures: try row.decode(column: "failures", as: Int.self),
            lockouts: try row.decode(column: "lockouts", as: Int.self),
            lockedUntil: try row.decode(column: "locked_until", as: Int64?.self),
            now: try row.decode(column: "now_ms", as: Int64.self)
        )
    }

    /// Sets the lock `attempt`'s failure earned, unless another failure set it first; whether it did.
    static func lock(
        _ db: any StatementDatabase,
        _ attempt: LockoutPolicy.Attempt,
        _ lock: LockoutPolicy.Lock,
        clock: DatabaseClock
    ) async throws -> Bool {
        let until: any SQLExpression =
            switch lock {
            case .forMilliseconds(let milliseconds): SQLQueryString("\(clock.now) + \(bind: milliseconds)")
            case .untilCleared: SQLBind(LockoutPolicy.untilCleared)
            }
        return try await db.raw(
            """
            UPDATE factor_failures SET lockouts = lockouts + 1, locked_until = \(until)
            WHERE username_key = \(bind: attempt.usernameKey) AND factor = \(bind: attempt.factor.rawValue)
              AND lockouts = \(bind: attempt.lockouts)
            RETURNING lockouts
            """
        ).first() != nil
    }

    /// Deletes the counters of `factors` (after a success, a new secret, or an operator's unlock).
    static func clear(_ db: any StatementDatabase, usernameKey: String, factors: [LockoutPolicy.Factor]) async throws {
        for factor in factors {
            try await db.raw("DELETE FROM factor_failures WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)").run()
        }
    }

    /// Deletes the counters idle for `idle` milliseconds by the database's clock, a username's
    /// with an account or without alike (so that their fate tells nobody which names exist), except
    /// a lock until cleared. Returns how many went.
    static func purge(_ db: any StatementDatabase, clock: DatabaseClock, idle: Int64) async throws -> Int {
        let now = clock.now
        return try await db.raw(
            """
            DELETE FROM factor_failures
            WHERE last_attempt_at <= \(now) - \(bind: idle)
              AND (locked_until IS NULL OR locked_until <> \(bind: LockoutPolicy.untilCleared))
            RETURNING username_key
            """
        ).all().count
    }
}
