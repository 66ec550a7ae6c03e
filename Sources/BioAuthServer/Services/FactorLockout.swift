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

    var durationMilliseconds: Int64 { Int64(duration.components.seconds) * 1000 }

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
    func reserveAttempt(_ db: any StatementDatabase, usernameKey: String, factor: Factor) async throws -> Reservation {
        let reserved = try await FactorFailureTable.reserve(db, usernameKey: usernameKey, factor: factor, now: clock.now,
                                                            window: durationMilliseconds)
        let attempt = reserved.failures
        if let lockedUntil = reserved.lockedUntil {
            if lockedUntil == Self.untilPasswordSignIn { return .lockedUntilPasswordSignIn }
            return .locked(retryAfterSeconds: Int((lockedUntil - reserved.now + 999) / 1000))
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
    func recordFailure(_ db: any StatementDatabase, usernameKey: String, factor: Factor, attempt: Int) async throws -> Bool {
        let locks = attempt >= threshold
        let escalates = factor == .pin ? Self.pinEscalation : Int.max
        let updated = try await FactorFailureTable.recordFailure(
            db, usernameKey: usernameKey, factor: factor, locks: locks, escalatesAt: escalates,
            lockUntil: SQLQueryString("\(clock.now) + \(bind: durationMilliseconds)"), forever: Self.untilPasswordSignIn)
        return locks && updated
    }

    /// Clears the count after a success (or a new secret).
    static func clear(_ db: any StatementDatabase, usernameKey: String, factor: Factor) async throws {
        try await FactorFailureTable.clear(db, usernameKey: usernameKey, factor: factor)
    }
}
