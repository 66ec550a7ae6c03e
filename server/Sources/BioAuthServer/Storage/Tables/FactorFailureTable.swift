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
        let statement = clock.flavor == .sqlite ? lockOnSQLite : lockOnPostgres
        return try await !db.rows(statement, lockBindings(attempt, lock, clock: clock)).isEmpty
    }

    /// Adds a lock to `:lock_key`'s `:lock_factor` counter, when `gate` holds and no other failure
    /// locked it first (its lockouts are still `:lockouts`): until cleared for `:lock_kind` 2, else
    /// for `:lock_ms` from now (the database's, `databaseNow`, when `:database_clock` is 1, else
    /// `:now`). The sign-in's completion runs it on both databases.
    static func locking(databaseNow: String, when gate: String) -> String {
        """
        UPDATE factor_failures
        SET lockouts = lockouts + 1,
            locked_until = CASE WHEN :lock_kind = 2 THEN \(LockoutPolicy.untilCleared)
                                ELSE (CASE WHEN :database_clock = 1 THEN \(databaseNow) ELSE :now END) + :lock_ms END
        WHERE username_key = :lock_key AND factor = :lock_factor AND lockouts = :lockouts AND \(gate)
        RETURNING 1 AS locked
        """
    }

    private static let lockOnSQLite = NamedSQL(locking(databaseNow: DatabaseClock.sqliteNow, when: "true"))
    private static let lockOnPostgres = NamedSQL(locking(databaseNow: DatabaseClock.postgresNow, when: "true"))

    /// The bindings of ``locking(databaseNow:when:)`` for `attempt` and `lock`.
    static func lockBindings(_ attempt: LockoutPolicy.Attempt?, _ lock: LockoutPolicy.Lock?, clock: DatabaseClock) -> [String: SQLValue] {
        let (kind, milliseconds): (Int64, Int64) =
            switch lock {
            case nil: (0, 0)
            case .forMilliseconds(let milliseconds)?: (1, milliseconds)
            case .untilCleared?: (2, 0)
            }
        return [
            "lock_key": .text(attempt?.usernameKey ?? ""), "lock_factor": .text(attempt?.factor.rawValue ?? ""),
            "lockouts": .integer(Int64(attempt?.lockouts ?? -1)), "lock_kind": .integer(kind), "lock_ms": .integer(milliseconds),
            "database_clock": .integer(clock.usesDatabaseClock ? 1 : 0), "now": .integer(clock.time.now().millisecondsSince1970),
        ]
    }

    /// Deletes the counters of `factors` (after a success, a new secret, or an operator's unlock).
    static func clear(_ db: any StatementDatabase, usernameKey: String, factors: [LockoutPolicy.Factor]) async throws {
        _ = try await db.rows(clear, clearBindings(factors).merging(["username_key": .text(usernameKey)]) { $1 })
    }

    /// Deletes `usernameKey`'s counters of the factors `:clears_password` and `:clears_pin` name,
    /// when `gate` holds. The sign-in's completion runs it on both databases.
    static func clearing(usernameKey: String, when gate: String) -> String {
        """
        DELETE FROM factor_failures
        WHERE username_key = \(usernameKey) AND ((factor = 'password' AND :clears_password = 1) OR (factor = 'pin' AND :clears_pin = 1))
          AND \(gate)
        """
    }

    private static let clear = NamedSQL(clearing(usernameKey: ":username_key", when: "true"))

    /// The bindings of ``clearing(usernameKey:when:)`` for `factors`.
    static func clearBindings(_ factors: [LockoutPolicy.Factor]) -> [String: SQLValue] {
        ["clears_password": .integer(factors.contains(.password) ? 1 : 0), "clears_pin": .integer(factors.contains(.pin) ? 1 : 0)]
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
