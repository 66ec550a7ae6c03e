import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// The verdict on a passkey's assertion answering an open ceremony: the authentication procedure
/// (``RelyingParty/verifyAuthentication(_:challenge:credential:userIdentified:)``) against the
/// stored passkey `rawId` names. A username-first ceremony (a re-authentication, a confirmation) must
/// be answered by its user's passkey; an unknown credential fails. It writes nothing: the account
/// core spends the ceremony, whatever the verdict.
enum PasskeyAssertionCheck {
    /// The verdict on `credential` for `ceremony`, checked against `passkey` by `relyingParty`.
    static func verdict(
        on credential: AuthenticationResponseJSON,
        answering ceremony: WebAuthnChallengeTable.Open,
        passkey: StoredPasskey?,
        relyingParty: RelyingParty
    ) -> Result<VerifiedAuthentication, WebAuthnError> {
        guard let passkey else { return .failure(WebAuthnError(.credentialNotAllowed, "unknown credential")) }
        if ceremony.usernameFirst, ceremony.userID != passkey.userID {
            return .failure(WebAuthnError(.credentialNotAllowed, "the passkey is not the named user's"))
        }
        let record = CredentialRecord(
            credentialID: passkey.credentialID,
            userHandle: PasskeyService.userHandle(passkey.userID),
            publicKey: passkey.publicKey,
            signCount: passkey.signCount,
            backupEligible: passkey.backupEligible
        )
        do {
            return .success(
                try relyingParty.verifyAuthentication(
                    credential,
                    challenge: ceremony.challenge,
                    credential: record,
                    userIdentified: ceremony.usernameFirst
                )
            )
        } catch {
            return .failure(error)
        }
    }
}
