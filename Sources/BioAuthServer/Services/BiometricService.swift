import BioAuthProtocol
import Foundation
import SQLKit

/// Authentication challenges for device keys, and the biometric sign-in.
///
/// The server trusts only signatures: a biometric session exists only when a registered
/// biometric key signs a fresh authentication challenge. Each challenge is 32 bytes no one
/// without the server key can predict, bound to one registration, expires after the configured
/// TTL, and is spent by the first well-formed completion attempt whatever its outcome
/// (``AuthenticationChallenge``, ``SpentChallengeTable``).
package struct BiometricService: Sendable {
    let database: any DatabaseProvider
    let sessions: SessionService
    let time: TimeSource
    let relyingPartyID: String
    let challengeTTL: Duration
    let challengeKeys: PINKeyRing
    /// The keys of registrations that answered challenges before.
    let signingKeys: SigningKeyCache
    let challengeRate: ChallengeRateLimit

    /// Issues an authentication challenge for an active registration, biometric or PIN. It only
    /// reads: the challenge is not stored (``AuthenticationChallenge``).
    package func createChallenge(_ request: CreateChallengeRequest) async throws -> ChallengeResponse {
        let now = time.now()
        let active = try await database.read { db in try await RegistrationTable.isActive(db, id: request.registrationID) }
        guard active, let challenge = AuthenticationChallenge.issue(
            registrationID: request.registrationID, expiresAt: now.addingTimeInterval(challengeTTL.timeInterval), key: challengeKeys.current)
        else { throw Rejection(.registrationNotFound, "No active registration with that id.") }
        try challengeRate.hit(request.registrationID, now: now)
        return ChallengeResponse(challengeID: challenge.id, challenge: challenge.bytes, expiresAt: Date(millisecondsSince1970: challenge.expiresAt))
    }

    /// Signs in with a signature over a fresh authentication challenge.
    ///
    /// The signature is checked against the challenge, then one transaction spends the challenge
    /// and, if the signature held, creates the session: one durable commit per completion.
    /// Spending decides: of concurrent attempts, only the one whose insert of the spent id lands
    /// goes on, whatever the others verified.
    package func signIn(_ request: BiometricSignInRequest) async throws -> SignInResponse {
        let minutes = try sessions.duration(requested: request.sessionDurationMinutes)
        let attempt = try await attempt(request)
        return try await complete(attempt, minutes: minutes, signatureIsValid: attempt.signatureIsValid)
    }

    /// Reads the challenge and its biometric registration and parses the signature (reads only).
    package func attempt(_ request: BiometricSignInRequest) async throws -> KeyAssertion {
        try await KeyAssertion.read(database, challengeID: request.challengeID, keys: challengeKeys, signingKeys: signingKeys, signature: request.signature,
                                    kind: .biometric, relyingPartyID: relyingPartyID)
    }

    /// The completion's one transaction (``BiometricSignInWrites``): spend the challenge, then
    /// record the outcome. The spending commits whatever the outcome, so a bad signature still
    /// spends the challenge.
    package func complete(_ assertion: KeyAssertion, minutes: Int, signatureIsValid: Bool) async throws -> SignInResponse {
        let now = time.now()
        let issued = SessionService.make(
            userID: assertion.userID, authentication: .init(method: .biometric, registrationID: assertion.registrationID), minutes: minutes, now: now)
        let attempt = BiometricSignInWrites.Attempt(
            challenge: assertion.challenge, registrationID: assertion.registrationID, userID: assertion.userID,
            signatureIsValid: signatureIsValid, session: issued.session, tokenDigest: issued.token.digest)
        switch try await BiometricSignInWrites.commit(attempt, on: database, now: now) {
        case .signedIn(let user): return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
        case .challengeInvalid: throw SignatureRules.unknownChallenge
        case .signatureInvalid: throw SignatureRules.invalid
        }
    }
}
