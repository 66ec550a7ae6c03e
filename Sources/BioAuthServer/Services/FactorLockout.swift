import Foundation
import SQLKit

/// Brute-force protection for one sign-in factor of one username.
///
/// Counters live in the database, so they survive restarts and are shared by every server
/// instance; lock expiry is decided by the database's clock (``DatabaseClock``), so instances
/// whose clocks drift still agree. A run of failures with no attempt for the lockout duration is
/// forgotten, so the counter of a username nobody tries any more can be purged (see
/// `Housekeeping`). Each attempt *reserves* its slot before the secret is checked (one atomic
/// upsert), so however many attempts race, at most `threshold` secrets are checked per lockout
/// window; a success clears the count.
///
/// Password counting is keyed by the normalised username, not the account, so an unknown username
/// locks exactly like a real one and the lockout itself reveals nothing about which usernames
/// exist. The PIN escalates: after ``pinEscalation`` lockouts with no success between them it stays
/// locked until a password sign-in clears it.
struct FactorLockout: Sendable {
    enum Factor: String, Sendable {
        case password, pin
    }

    let threshold: Int
    let duration: Duration
    let clock: DatabaseClock
    /// PIN lockouts in a row after which only a password sign-in unlocks the PIN.
    static let pinEscalation = 3
    /// `locked_until` of a PIN locked until a password sign-in.
    static let untilPasswordSignIn = Int64.max

    private var durationMilliseconds: Int64 { Int64(duration.components.seconds) * 1000 }

    /// The verdict on a new attempt.
    enum Reservation: Sendable {
        /// Go ahead; this is attempt number `n` in the current run of failures.
        case attempt(Int)
        /// Refused; the factor is locked for this many more seconds.
        case locked(retryAfterSeconds: Int)
        /// Refused; the PIN is locked until a password sign-in.
        case lockedUntilPasswordSignIn
    }

    /// Reserves an attempt, or reports the lock.
    func reserveAttempt(_ db: any SQLDatabase, usernameKey: String, factor: Factor) async throws -> Reservation {
        let now = clock.now
        let row = try await db.raw("""
            INSERT INTO factor_failures (username_key, factor, failures, locked_until, last_attempt_at)
            VALUES (\(bind: usernameKey), \(bind: factor.rawValue), 1, NULL, \(now))
            ON CONFLICT (username_key, factor) DO UPDATE SET
                failures = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.failures
                                WHEN factor_failures.locked_until IS NOT NULL THEN 1
                                WHEN factor_failures.last_attempt_at <= \(now) - \(bind: durationMilliseconds) THEN 1
                                ELSE factor_failures.failures + 1 END,
                locked_until = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.locked_until
                                    ELSE NULL END,
                last_attempt_at = CASE WHEN factor_failures.locked_until > \(now) THEN factor_failures.last_attempt_at
                                       ELSE \(now) END
            RETURNING failures, locked_until, \(now) AS now_ms
            """).first()
        guard let row else { throw CorruptRowError(column: "factor_failures") }
        let attempt = try row.decode(column: "failures", as: Int.self)
        if let lockedUntil = try row.decode(column: "locked_until", as: Int64?.self) {
            if lockedUntil == Self.untilPasswordSignIn { return .lockedUntilPasswordSignIn }
            let now = try row.decode(column: "now_ms", as: Int64.self)
            return .locked(retryAfterSeconds: Int((lockedUntil - now + 999) / 1000))
        }
        guard attempt <= threshold else {
            // Earlier attempts still being checked hold every slot; their outcome decides the lock.
            return .locked(retryAfterSeconds: Int(durationMilliseconds / 1000))
        }
        return .attempt(attempt)
    }

    /// Records that reserved attempt number `attempt` failed; the `threshold`-th failure locks
    /// (for good, until a password sign-in, at the PIN's ``pinEscalation``-th lockout in a row).
    /// Returns whether this failure locked the factor.
    ///
    /// It writes the same row whether or not the username has an account, so that a failure
    /// costs an unknown username exactly what it costs a real one.
    @discardableResult
    func recordFailure(_ db: any SQLDatabase, usernameKey: String, factor: Factor, attempt: Int) async throws -> Bool {
        let locks = attempt >= threshold
        let escalates = factor == .pin ? Self.pinEscalation : Int.max
        let row = try await db.raw("""
            UPDATE factor_failures SET
                lockouts = CASE WHEN \(bind: locks) AND locked_until IS NULL THEN lockouts + 1 ELSE lockouts END,
                locked_until = CASE WHEN NOT \(bind: locks) OR locked_until IS NOT NULL THEN locked_until
                                    WHEN lockouts + 1 >= \(bind: escalates) THEN \(bind: Self.untilPasswordSignIn)
                                    ELSE \(clock.now) + \(bind: durationMilliseconds) END
            WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)
            RETURNING lockouts
            """).first()
        return locks && row != nil
    }

    /// Clears the count after a success (or a new secret).
    static func clear(_ db: any SQLDatabase, usernameKey: String, factor: Factor) async throws {
        try await db.raw("DELETE FROM factor_failures WHERE username_key = \(bind: usernameKey) AND factor = \(bind: factor.rawValue)").run()
    }
}
