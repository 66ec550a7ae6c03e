import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// A passkey's assertion answering an open ceremony, for a sign-in, a re-authentication or a
/// confirmation alike: what it is checked against (``read(_:ceremonyID:kind:credentialID:)``), and
/// the verdict on it (``verdict(on:answering:passkey:relyingParty:)``), the authentication procedure
/// (``RelyingParty/verifyAuthentication(_:challenge:credential:userIdentified:)``) against the
/// stored passkey `rawId` names. A username-first ceremony (a re-authentication, a confirmation) must
/// be answered by its user's passkey; an unknown credential fails. It writes nothing: the account
/// core spends the ceremony, whatever the verdict.
enum PasskeyAssertionCheck {
    /// What an answer to ceremony `ceremonyID` of `kind` is checked against: the open ceremony, the
    /// passkey `credentialID` names (looked up by its credential id, whoever holds it) and its
    /// owner's credential epoch, read before the assertion is checked.
    static func read(
        _ db: any StatementDatabase,
        ceremonyID: String,
        kind: Ceremony,
        credentialID: [UInt8]
    ) async throws -> (ceremony: WebAuthnChallengeTable.Open?, passkey: StoredPasskey?, epoch: Int64?) {
        let ceremony = try await WebAuthnChallengeTable.read(db, id: ceremonyID, ceremony: kind)
        guard let passkey = try await PasskeyTable.find(db, credentialID: credentialID) else { return (ceremony, nil, nil) }
        return (ceremony, passkey, try await UserTable.epoch(db, id: passkey.userID))
    }

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
