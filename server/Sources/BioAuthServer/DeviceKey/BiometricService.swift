import BioAuthProtocol
import Foundation

/// Authentication challenges for device keys, and the biometric sign-in.
///
/// The server trusts only signatures: a biometric session exists only when a registered
/// biometric key signs a fresh authentication challenge. Each challenge is 32 bytes no one
/// without the server key can predict, bound to one registration and its owner's credential
/// epoch, expires after the configured TTL, and is spent by the first well-formed completion
/// attempt whatever its outcome (``AuthenticationChallenge``, ``SpentChallengeTable``).
package struct BiometricService: Sendable {
    let database: any DatabaseProvider
    let core: AccountCore
    let assertions: KeyAssertionReader
    let challengeTTL: Duration
    let challengeRate: ChallengeRateLimit

    /// Issues an authentication challenge for an active registration, biometric or PIN. It only
    /// reads: the challenge is not stored (``AuthenticationChallenge``).
    package func createChallenge(_ request: CreateChallengeRequest) async throws -> ChallengeResponse {
        let now = core.time.now()
        let epoch = try await database.read { db in try await RegistrationTable.activeOwnerEpoch(db, id: request.registrationID) }
        guard let epoch,
            let challenge = AuthenticationChallenge.issue(
                registrationID: request.registrationID,
                epoch: epoch,
                expiresAt: now.addingTimeInterval(challengeTTL.timeInterval),
                key: assertions.challengeKeys.current
            )
        else { throw Rejection(.registrationNotFound, "No active registration with that id.") }
        try challengeRate.hit(request.registrationID, now: now)
        return ChallengeResponse(challengeID: challenge.id, challenge: challenge.bytes, expiresAt: Date(millisecondsSince1970: challenge.expiresAt))
    }

    /// Signs in with a signature over a fresh authentication challenge: the challenge and its
    /// registration are read and the signature parsed (reads only), then the account core
    /// verifies it, spends the challenge whatever the outcome and, if it held, creates the session,
    /// in one durable commit.
    package func signIn(_ request: BiometricSignInRequest) async throws -> SignInResponse {
        let minutes = try core.sessions.minutes(requested: request.sessionDurationMinutes)
        let assertion = try await assertions.read(challengeID: request.challengeID, signature: request.signature, kind: .biometric)
        return try await core.complete(DeviceKeyProof(signatureOf: assertion, factor: .biometric), for: .signIn(minutes: minutes)).signInResponse
    }
}
