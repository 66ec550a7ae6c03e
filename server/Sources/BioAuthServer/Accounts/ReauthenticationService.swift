import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Re-authentication on a live session (`POST /v1/sessions/current/reauthenticate`): the
/// password, a biometric signature by one of the caller's own keys over a fresh challenge, or one
/// of the caller's passkeys answering a ceremony opened for this session. The account core
/// renews the session's authentication and its step-up time (``StepUp``), under the same rules as
/// a sign-in: a wrong password counts against the lockout, so a stolen token is no better a way to
/// guess the password than the sign-in itself.
struct ReauthenticationService: Sendable {
    let database: any DatabaseProvider
    let check: PasswordCheck
    let passkeys: PasskeySignInService
    let assertions: KeyAssertionReader
    var core: AccountCore { check.core }

    /// A passkey ceremony for re-authenticating the caller, bound to their session.
    func passkeyOptions(for caller: Caller) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        try await passkeys.reauthenticationOptions(for: caller)
    }

    /// Re-authenticates the caller with exactly one of the three proofs.
    func reauthenticate(_ request: ReauthenticationBody, for caller: Caller) async throws -> CurrentSessionResponse {
        let completed: AccountCore.Completed
        switch (request.password, request.challengeID, request.signature, request.ceremonyID, request.credential) {
        case (let password?, nil, nil, nil, nil):
            guard let account = try await database.read({ db in try await UserTable.passwordAccount(db, id: caller.userID) }) else {
                throw Rejection(.invalidSession, "The account no longer exists.")
            }
            let proof = try await check.proof(password, for: account, usernameKey: account.usernameKey, event: .sessionReauthenticated)
            completed = try await core.complete(proof, for: .reauthenticate(caller))
        case (nil, let challengeID?, let signature?, nil, nil):
            let assertion = try await assertions.read(challengeID: challengeID, signature: signature, kind: .biometric, userID: caller.userID)
            completed = try await core.complete(DeviceKeyProof(signatureOf: assertion, factor: .biometric), for: .reauthenticate(caller))
        case (nil, nil, nil, let ceremonyID?, let credential?):
            let proof = try await passkeys.verify(ceremonyID: ceremonyID, credential: credential, for: caller)
            completed = try await core.complete(proof, for: .reauthenticate(caller))
        default:
            throw Rejection(.invalidRequest, "Send either password, or challenge_id with signature, or ceremony_id with credential.")
        }
        return CurrentSessionResponse(session: completed.session, user: completed.user)
    }
}
