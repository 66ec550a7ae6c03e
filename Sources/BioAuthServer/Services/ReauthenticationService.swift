import BioAuthProtocol
import Foundation
import SQLKit

/// Re-authentication on a live session (`POST /v1/sessions/current/reauthenticate`): the password,
/// or a biometric signature by one of the caller's own keys over a fresh challenge, renews the
/// session's ``Session/authenticatedAt`` for ``StepUp``.
///
/// A wrong password counts against the password's lockout like a failed sign-in, so a stolen
/// token is no better a way to guess the password than the sign-in itself.
struct ReauthenticationService: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let guarded: LockoutGuard
    let time: TimeSource
    let relyingPartyID: String
    /// The keys authentication challenges are made under.
    let challengeKeys: PINKeyRing
    /// The keys of registrations that answered challenges before.
    let signingKeys: SigningKeyCache

    /// Re-authenticates the caller with exactly one of the two proofs.
    func reauthenticate(_ request: ReauthenticateRequest, for caller: Caller) async throws -> CurrentSessionResponse {
        switch (request.password, request.challengeID, request.signature) {
        case (let password?, nil, nil):
            return try await withPassword(password, for: caller)
        case (nil, let challengeID?, let signature?):
            return try await withSignature(challengeID: challengeID, signature: signature, for: caller)
        default:
            throw Rejection(.invalidRequest, "Send either password, or challenge_id with signature.")
        }
    }

    private func withPassword(_ password: String, for caller: Caller) async throws -> CurrentSessionResponse {
        guard let account = try await database.read({ db in try await UserTable.passwordAccount(db, id: caller.userID) }) else {
            throw Rejection(.invalidSession, "The account no longer exists.")
        }
        let secret = CredentialRules.normalisedPassword(password)
        let target = LockoutGuard.Target(usernameKey: account.usernameKey, factor: .password, subject: .username(account.usernameKey),
                                         event: .sessionReauthenticated)
        try await guarded.attempt(target) { try await hasher.verify(secret, against: account.passwordHash) ? () : nil }
        let now = time.now()
        return try await database.transaction { db in
            try await FactorLockout.clear(db, usernameKey: account.usernameKey, factor: .password)
            try await SessionTable.markAuthenticated(db, id: caller.sessionID, now: now)
            try await AuditLog.record(db, userID: caller.userID, type: .sessionReauthenticated, outcome: .success, at: now, sessionID: caller.sessionID)
            return try await SessionService.current(db, caller, now: now)
        }
    }

    private func withSignature(challengeID: String, signature: Base64URLBytes, for caller: Caller) async throws -> CurrentSessionResponse {
        let assertion = try await KeyAssertion.read(database, challengeID: challengeID, keys: challengeKeys, signingKeys: signingKeys, signature: signature, kind: .biometric,
                                                    userID: caller.userID, relyingPartyID: relyingPartyID)
        let signatureIsValid = assertion.signatureIsValid
        let now = time.now()
        enum Outcome: Sendable { case done(CurrentSessionResponse), challengeInvalid, signatureInvalid }
        let outcome = try await database.transaction { db -> Outcome in
            guard try await assertion.consume(db, now: now) else { return .challengeInvalid }
            guard signatureIsValid else {
                try await AuditLog.count(db, .user(caller.userID), type: .sessionReauthenticated, outcome: .failure, at: now,
                                         registrationID: assertion.registrationID)
                return .signatureInvalid
            }
            guard try await assertion.markUsed(db, now: now) else { return .challengeInvalid }
            try await SessionTable.markAuthenticated(db, id: caller.sessionID, now: now)
            try await AuditLog.record(db, userID: caller.userID, type: .sessionReauthenticated, outcome: .success, at: now,
                                      registrationID: assertion.registrationID, sessionID: caller.sessionID)
            return .done(try await SessionService.current(db, caller, now: now))
        }
        switch outcome {
        case .done(let answer): return answer
        case .challengeInvalid: throw SignatureRules.unknownChallenge
        case .signatureInvalid: throw SignatureRules.invalid
        }
    }
}
