import BioAuthProtocol
import Foundation
import SQLKit

/// One attempt at a secret factor (a password or a PIN), guarded by the lockout: reserve a slot,
/// run the slow check, and on a mismatch count the failure (which may lock the factor).
///
/// Failures and locked attempts go to the audit trail as counted events (``AuditLog/count``),
/// never one row each, and the writes of a failure are the same whether or not the username has
/// an account. On a match nothing is written here: the caller clears the count in the same
/// transaction that records its success.
struct LockoutGuard: Sendable {
    let database: any DatabaseProvider
    let lockout: FactorLockout
    let metrics: ServerMetrics
    let time: TimeSource

    /// Whose factor is tried, and how the attempt shows in the audit trail.
    struct Target: Sendable {
        var usernameKey: String
        var factor: FactorLockout.Factor
        var subject: AuditLog.Subject
        var event: AuditEvent.Kind
        var registrationID: String?
    }

    /// Reserves an attempt and runs `check`, whose `nil` means "no match". Returns what it
    /// returned on a match; throws `invalid_credentials` when it did not match, `429 locked` or
    /// `403 pin_locked` when the factor is locked.
    func attempt<Match: Sendable>(_ target: Target, check: @Sendable () async throws -> Match?) async throws -> Match {
        let reservation = try await database.transaction { db -> FactorLockout.Reservation in
            let reservation = try await lockout.reserveAttempt(db, usernameKey: target.usernameKey, factor: target.factor)
            if case .attempt = reservation { return reservation }
            try await AuditLog.count(db, target.subject, type: target.event, outcome: .locked, at: time.now(), registrationID: target.registrationID)
            return reservation
        }
        let attempt: Int
        switch reservation {
        case .attempt(let number):
            attempt = number
        case .locked(let seconds):
            metrics.lockedAttempt(target.factor)
            throw Rejection(.locked, "Too many failed attempts; try again later.", retryAfterSeconds: seconds)
        case .lockedUntilPasswordSignIn:
            metrics.lockedAttempt(target.factor)
            throw Rejection(.pinLocked, "The PIN was locked too often; sign in with the password to unlock it.")
        }
        guard let match = try await check() else {
            let now = time.now()
            let locked = try await database.transaction { db -> Bool in
                let locked = try await lockout.recordFailure(db, usernameKey: target.usernameKey, factor: target.factor, attempt: attempt)
                try await AuditLog.count(db, target.subject, type: target.event, outcome: .failure, at: now, registrationID: target.registrationID)
                return locked
            }
            if locked { metrics.lockout(target.factor) }
            throw Self.invalidCredentials
        }
        return match
    }

    /// The one answer to every wrong secret and unknown account.
    static var invalidCredentials: Rejection {
        Rejection(.invalidCredentials, "The username or the secret is wrong.")
    }
}
