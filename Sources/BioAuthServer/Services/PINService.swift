import BioAuthProtocol
import Foundation
import SQLKit

/// The PIN factor: knowledge (the PIN) and possession (the device key it is bound to) together.
///
/// A PIN is set together with a device key of kind `pin` (a key that needs no biometric match;
/// the PIN is the user check), and takes effect when that key signs its registration challenge.
/// A PIN sign-in is the key's signature over a fresh authentication challenge plus the PIN: the
/// signature is verified (and the challenge spent) first, and without a valid one no PIN is ever
/// checked, so PINs cannot be sprayed over usernames. The PIN's hash is keyed with a server secret
/// outside the database (``PINHasher``).
struct PINService: Sendable {
    let database: any DatabaseProvider
    let hasher: PINHasher
    let registrations: RegistrationService
    let guarded: LockoutGuard
    let sessions: SessionService
    let stepUp: StepUp
    let time: TimeSource
    let relyingPartyID: String
    /// The keys authentication challenges are made under.
    let challengeKeys: PINKeyRing
    /// The keys of registrations that answered challenges before.
    let signingKeys: SigningKeyCache

    /// Starts setting a PIN: a pending PIN key holding the PIN's hash, and its registration
    /// challenge. Needs a recent primary authentication.
    func setPIN(_ request: SetPINRequest, for caller: Caller) async throws -> RegistrationStartResponse {
        guard CredentialRules.isAcceptablePIN(request.pin) else {
            throw Rejection(.invalidPIN, "A PIN is 4 to 12 digits.")
        }
        guard !CommonPINs.contains(request.pin) else {
            throw Rejection(.pinTooCommon, "That PIN is one of the most common ones; choose another.")
        }
        var key = try RegistrationService.newKey(kind: .pin, algorithm: request.algorithm, publicKey: request.publicKey, label: request.label)
        try stepUp.require(caller)
        // Hash before taking the database, so the slow part never holds it.
        key.pinHash = try await hasher.hash(request.pin)
        return try await registrations.start(key, for: caller)
    }

    /// Signs in with the PIN key's signature and the PIN.
    func signIn(_ request: PINSignInRequest) async throws -> SignInResponse {
        let minutes = try sessions.duration(requested: request.sessionDurationMinutes)
        let assertion = try await KeyAssertion.read(database, challengeID: request.challengeID, keys: challengeKeys, signingKeys: signingKeys,
                                                    signature: request.signature, kind: .pin,
                                                    relyingPartyID: relyingPartyID)
        let signatureIsValid = assertion.signatureIsValid
        let now = time.now()
        // The challenge is spent whatever the verdict; a bad signature is counted, never a PIN check.
        let consumed = try await database.transaction { db -> Bool in
            guard try await assertion.consume(db, now: now) else { return false }
            if !signatureIsValid {
                try await AuditLog.count(db, .user(assertion.userID), type: .pinSignIn, outcome: .failure, at: now,
                                         registrationID: assertion.registrationID)
            }
            return true
        }
        guard consumed else { throw SignatureRules.unknownChallenge }
        guard signatureIsValid else { throw SignatureRules.invalid }

        guard let (usernameKey, storedHash) = try await database.read({ db in
            try await RegistrationTable.pin(db, registrationID: assertion.registrationID)
        }) else {
            throw SignatureRules.unknownChallenge  // revoked since the challenge was read
        }
        let target = LockoutGuard.Target(usernameKey: usernameKey, factor: .pin, subject: .user(assertion.userID), event: .pinSignIn,
                                         registrationID: assertion.registrationID)
        let verdict = try await guarded.attempt(target) { () -> PINHasher.Verdict? in
            let verdict = try await hasher.verify(request.pin, against: storedHash)
            return verdict == .mismatch ? nil : verdict
        }
        // A hash under a retired key is replaced under the current one, now that the PIN is known.
        let rehashed = verdict == .matchUnderOldKey ? try await hasher.hash(request.pin) : nil
        return try await database.transaction { db in
            guard try await assertion.markUsed(db, now: now), let user = try await UserTable.user(db, id: assertion.userID) else {
                throw SignatureRules.unknownChallenge
            }
            try await FactorLockout.clear(db, usernameKey: usernameKey, factor: .pin)
            if let rehashed {
                try await RegistrationTable.setPINHash(db, registrationID: assertion.registrationID, hash: rehashed)
            }
            let issued = try await SessionService.insert(
                db, userID: assertion.userID, authentication: .init(method: .pin, registrationID: assertion.registrationID),
                minutes: minutes, now: now)
            try await AuditLog.record(db, userID: assertion.userID, type: .pinSignIn, outcome: .success, at: now,
                                      registrationID: assertion.registrationID, sessionID: issued.session.id)
            return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
        }
    }
}
