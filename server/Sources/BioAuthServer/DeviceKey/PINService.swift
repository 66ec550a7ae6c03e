import BioAuthProtocol
import Foundation

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
    let core: AccountCore
    let stepUp: StepUp
    let assertions: KeyAssertionReader

    /// Starts setting a PIN: a pending PIN key holding the PIN's hash, and its registration
    /// challenge. Needs a recent strong authentication (``StepUp``): a PIN session cannot set one,
    /// since the server cannot tell a new PIN key from a key on another phone.
    func setPIN(_ request: SetPINRequest, for caller: Caller) async throws -> RegistrationStartResponse {
        guard CredentialRules.isAcceptablePIN(request.pin) else {
            throw Rejection(.invalidPIN, "A PIN is 4 to 12 digits.")
        }
        guard !CommonPINs.contains(request.pin) else {
            throw Rejection(.pinTooCommon, "That PIN is one of the most common ones; choose another.")
        }
        var key = try RegistrationService.newKey(
            kind: .pin,
            algorithm: request.algorithm,
            publicKey: request.publicKey,
            label: request.label,
            evidence: request.keyAttestation
        )
        try stepUp.require(caller)
        // Hash before taking the database, so the slow part never holds it.
        key.pinHash = try await hasher.hash(request.pin)
        return try await registrations.start(key, for: caller)
    }

    /// Signs in with the PIN key's signature and the PIN.
    ///
    /// The signature is checked first: a bad one spends the challenge and is counted, and no PIN
    /// is checked. A good one spends the challenge together with the PIN attempt's reservation,
    /// then the PIN is checked, and the account core records the verdict.
    func signIn(_ request: PINSignInRequest) async throws -> SignInResponse {
        let minutes = try core.sessions.minutes(requested: request.sessionDurationMinutes)
        let assertion = try await assertions.read(challengeID: request.challengeID, signature: request.signature, kind: .pin)
        let signed = DeviceKeyProof(signatureOf: assertion, factor: .pin)
        guard signed.holds else {
            return try await core.complete(signed, for: .signIn(minutes: minutes)).signInResponse
        }
        let proof = try await proof(of: assertion, pin: request.pin, event: .pinSignIn)
        return try await core.complete(proof, for: .signIn(minutes: minutes)).signInResponse
    }

    /// The PIN's proof once its key's signature over `assertion` verified: the attempt is reserved
    /// against the PIN's lockout (spending the challenge; a locked PIN is refused, counted as
    /// `event`), then the PIN is checked. A sign-in and a confirmation's approval both take it.
    func proof(of assertion: KeyAssertion, pin: String, event: AuditEvent.Kind) async throws -> DeviceKeyProof {
        guard
            let (usernameKey, storedHash) = try await database.read({ db in
                try await RegistrationTable.pin(db, registrationID: assertion.registrationID)
            })
        else {
            throw SignatureRules.unknownChallenge  // revoked since the challenge was read
        }
        return try await hasher.bcrypt.admitted {
            let attempt = try await core.reserve(
                .pin,
                usernameKey: usernameKey,
                subject: .user(assertion.userID),
                event: event,
                registrationID: assertion.registrationID,
                spending: assertion.challenge
            )
            let verdict = try await hasher.verify(pin, against: storedHash)
            // A hash under a retired key is replaced under the current one, now that the PIN is known.
            let rehashed = verdict == .matchUnderOldKey ? try await hasher.hash(pin) : nil
            return DeviceKeyProof(pinOf: assertion, attempt: attempt, matches: verdict != .mismatch, newPINHash: rehashed)
        }
    }
}
