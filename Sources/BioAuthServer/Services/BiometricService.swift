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
    let challengeRate: ChallengeRateLimit

    /// Issues an authentication challenge for an active registration, biometric or PIN. It only
    /// reads: the challenge is not stored (``AuthenticationChallenge``).
    package func createChallenge(_ request: CreateChallengeRequest) async throws -> ChallengeResponse {
        let now = time.now()
        let active = try await database.withDatabase { db in try await RegistrationTable.isActive(db, id: request.registrationID) }
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
        try await KeyAssertion.read(database, challengeID: request.challengeID, keys: challengeKeys, signature: request.signature,
                                    kind: .biometric, relyingPartyID: relyingPartyID)
    }

    /// The completion's one transaction: spend the challenge, then record the outcome. The
    /// spending commits whatever the outcome, so a bad signature still spends the challenge.
    /// A bad signature is counted in the owner's audit trail, not written one row each: whoever
    /// sent it has not shown they own the account.
    package func complete(_ assertion: KeyAssertion, minutes: Int, signatureIsValid: Bool) async throws -> SignInResponse {
        enum Outcome: Sendable { case signedIn(SignInResponse), challengeInvalid, signatureInvalid }
        let now = time.now()
        let outcome = try await database.transaction { db -> Outcome in
            guard try await assertion.consume(db, now: now) else { return .challengeInvalid }
            guard signatureIsValid else {
                try await AuditLog.count(db, .user(assertion.userID), type: .biometricSignIn, outcome: .failure, at: now,
                                         registrationID: assertion.registrationID)
                return .signatureInvalid
            }
            // The registration may have been deleted since the challenge was issued.
            guard try await assertion.markUsed(db, now: now), let user = try await UserTable.user(db, id: assertion.userID) else {
                return .challengeInvalid
            }
            let issued = try await SessionService.insert(
                db, userID: assertion.userID, authentication: .init(method: .biometric, registrationID: assertion.registrationID),
                minutes: minutes, now: now)
            try await AuditLog.record(db, userID: assertion.userID, type: .biometricSignIn, outcome: .success, at: now,
                                      registrationID: assertion.registrationID, sessionID: issued.session.id)
            return .signedIn(SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user))
        }
        switch outcome {
        case .signedIn(let response): return response
        case .challengeInvalid: throw SignatureRules.unknownChallenge
        case .signatureInvalid: throw SignatureRules.invalid
        }
    }
}
