import Foundation
import SQLKit

/// Brute-force protection for one sign-in factor of one username.
///
/// Counters live in the database, so they survive restarts and are shared by every server
/// instance. A run of failures with no attempt for the lockout duration is forgotten, so the
/// counter of a username nobody tries any more can be purged (see `Housekeeping`). Each attempt *reserves* its slot before the secret is checked (one atomic upsert),
/// so however many attempts race, at most `threshold` secrets are checked per lockout window; a
/// success clears the count.
///
/// Counting is keyed by the normalised username, not the account, so an unknown username locks
/// exactly like a real one and the lockout itself reveals nothing about which usernames exist.
struct FactorLockout: Sendable {
    enum Factor: String, Sendable {
        case password, pin
    }

    let threshold: Int
    let duration: Duration

    private var durationSeconds: Int { Int(duration.components.seconds) }

    /// The verdict on a new attempt.
    enum Reservation: Sendable {
        /// Go ahead; this is attempt number `n` in the current run of failures.
        case attempt(Int)
        /// Refused; the factor is locked for this many more seconds.
        case locked(retryAfterSeconds: Int)
    }

    /// Reserves an attempt, or reports the lock.
    func reserveAttempt(_ db: any SQLDatabase, usernameKey: String, factor: Factor, now: Date) async throws -> Reservation {
        let now = now.millisecondsSince1970
        let staleBefore = now - Int64(durationSeconds) * 1000
        let row = try await db.raw("""
            INSERT INTO factor_failures (username_key, factor, failures, locked_until, last_attempt_at)
            VALUES (\(bind: usernameKey), \(bind: factor.rawValue), 1, NULL, \(bind: now))
            ON CONFLICT (username_key, factor) DO UPDATE SET
                failures = CASE WHEN factor_failures.locked_until > \(bind: now) THEN factor_failures.failures
                                WHEN factor_failures.locked_until IS NOT NULL THEN 1
                                WHEN factor_failures.last_attempt_at <= \(bind: staleBefore) THEN 1
                                ELSE factor_failures.failures + 1 END,
                locked_until = CASE WHEN factor_failures.locked_until > \(bind: now) THEN factor_failures.locked_until
                                    ELSE NULL END,
                last_attempt_at = CASE WHEN factor_failures.locked_until > \(bind: now) THEN factor_failures.last_attempt_at
                                       ELSE \(bind: now) END
            RETURNING failures, locked_until
            """).first()
        guard let row else { throw CorruptRowError(column: "factor_failures") }
        let attempt = try row.decode(column: "failures", as: Int.self)
        if let lockedUntil = try row.decode(column: "locked_until", as: Int64?.self) {
            return .locked(retryAfterSeconds: Int((lockedUntil - now + 999) / 1000))
        }
        guard attempt <= threshold else {
            // Earlier attempts still being checked hold every slot; their outcome decides the lock.
            return .locked(retryAfterSeconds: durationSeconds)
        }
        return .attempt(attempt)
    }

    /// Records that reserved attempt number `attempt` failed; the `threshold`-th failure locks.
    /// Returns whether this failure locked the factor.
    @discardableResult
    func recordFailure(_ db: any SQLDatabase, usernameKey: String, factor: Factor, attempt: Int, now: Date) async throws -> Bool {
        guard attempt >= threshold else { return false }
        let until = now.millisecondsSince1970 + Int64(durationSeconds) * 1000
        return try await !db.raw("""
            UPDATE factor_failures SET locked_until = \(bind: until)
            WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue) AND locked_until IS NULL
            RETURNING factor
            """).all().isEmpty
    }

    /// Clears the count after a success (or a new secret).
    static func clear(_ db: any SQLDatabase, usernameKey: String, factor: Factor) async throws {
        try await db.raw("DELETE FROM factor_failures WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)").run()
    }
}
