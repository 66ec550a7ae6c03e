import BioAuthProtocol
import Foundation
import SQLKit

/// Sign-in with a known secret: the password or the PIN.
///
/// An unknown username, a user without a PIN and a wrong secret take the same path: the attempt
/// is reserved against the lockout, one slow hash is verified (a dummy one when there is no real
/// one), the failure is counted, and the answer is the same `invalid_credentials`.
struct SecretSignInService: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let lockout: FactorLockout
    let sessions: SessionService
    let time: TimeSource
    let metrics: ServerMetrics

    /// Signs in with username and password.
    func signIn(_ request: PasswordSignInRequest) async throws -> SignInResponse {
        try await signIn(
            username: request.username, secret: CredentialRules.normalisedPassword(request.password),
            factor: .password, requestedMinutes: request.sessionDurationMinutes)
    }

    /// Signs in with username and PIN.
    func signIn(_ request: PINSignInRequest) async throws -> SignInResponse {
        try await signIn(username: request.username, secret: request.pin, factor: .pin, requestedMinutes: request.sessionDurationMinutes)
    }

    private func signIn(username rawUsername: String, secret: String, factor: FactorLockout.Factor, requestedMinutes: Int?) async throws -> SignInResponse {
        let minutes = try sessions.duration(requested: requestedMinutes)
        let eventType: AuditEvent.Kind = factor == .password ? .passwordSignIn : .pinSignIn
        let method: AuthenticationMethod = factor == .password ? .password : .pin

        // A username that breaks the rules cannot belong to an account: verify against the dummy
        // hash like any unknown user, but keep no counter for it.
        guard let username = CredentialRules.username(rawUsername) else {
            _ = try await hasher.verify(secret, against: nil)
            throw invalidCredentials
        }

        let (reservation, user, storedHash) = try await database.transaction { db -> (FactorLockout.Reservation, User?, String?) in
            let reservation = try await lockout.reserveAttempt(db, usernameKey: username.key, factor: factor, now: time.now())
            let row = try await db.raw("SELECT id, username, created_at, password_hash, pin_hash FROM users WHERE username_key = \(bind: username.key)").first()
            let user = try row.map(AccountService.user(from:))
            let hash = try row?.decode(column: factor == .password ? "password_hash" : "pin_hash", as: String?.self)
            if case .locked = reservation, let user {
                try await AuditLog.record(db, userID: user.id, type: eventType, outcome: .locked, at: time.now())
            }
            return (reservation, user, hash)
        }
        let attempt: Int
        switch reservation {
        case .attempt(let number):
            attempt = number
        case .locked(let seconds):
            metrics.lockedAttempt(factor)
            throw APIError(.locked, "Too many failed attempts; try again later.", retryAfterSeconds: seconds)
        }
        let matches = try await hasher.verify(secret, against: storedHash)
        let now = time.now()

        guard matches, let user else {
            let locked = try await database.transaction { db -> Bool in
                let locked = try await lockout.recordFailure(db, usernameKey: username.key, factor: factor, attempt: attempt, now: now)
                if let user {
                    try await AuditLog.record(db, userID: user.id, type: eventType, outcome: .failure, at: now)
                }
                return locked
            }
            if locked { metrics.lockout(factor) }
            throw invalidCredentials
        }

        let issued = try await database.transaction { db in
            try await FactorLockout.clear(db, usernameKey: username.key, factor: factor)
            let issued = try await SessionService.insert(db, userID: user.id, authentication: .init(method: method), minutes: minutes, now: now)
            try await AuditLog.record(db, userID: user.id, type: eventType, outcome: .success, at: now, sessionID: issued.session.id)
            return issued
        }
        return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
    }

    private var invalidCredentials: APIError {
        APIError(.invalidCredentials, "The username or the secret is wrong.")
    }
}
