import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// A passkey's assertion, checked by the ceremony core (``RelyingParty``), for the account core.
///
/// An unknown credential is a proof of nobody: it spends the ceremony and counts nothing. A
/// passkey that is not the named user's (in a username-first ceremony, also one for a username
/// without an account) fails as any refused assertion does, counted on its owner's trail.
struct PasskeyProof: FactorProof {
    /// The stored passkey the assertion names, if any.
    let passkey: StoredPasskey?
    let ceremonyID: String
    /// The kind of ceremony it answered: a sign-in's or re-authentication's, or a confirmation's.
    var ceremony: Ceremony = .authentication
    /// Its owner's credential epoch when the passkey was read, before the assertion was checked.
    let epoch: Int64
    let verdict: Result<VerifiedAuthentication, WebAuthnError>

    var factor: AuthenticationMethod { .passkey }
    var userID: String? { passkey?.userID }
    var holds: Bool { if case .success = verdict { true } else { false } }
    var challenge: ChallengeToSpend? { .webAuthn(ceremonyID: ceremonyID, ceremony: ceremony) }
    var credential: CredentialInUse {
        let verified = try? verdict.get()
        return .passkey(
            id: passkey?.id ?? "",
            verifiedSignCount: passkey?.signCount ?? 0,
            signCount: verified?.signCount ?? 0,
            backedUp: verified?.backedUp ?? false
        )
    }
    var failureSubject: AuditLog.Subject? { passkey.map { .user($0.userID) } }
    var signInEvent: AuditEvent.Kind { .passkeySignIn }
    /// The signature held, yet the counter went back: the credential may have been cloned.
    var failureEvent: AuditEvent.Kind? {
        if case .failure(let error) = verdict, error.reason == .signCountRegressed { return .passkeyCloneSuspected }
        return nil
    }
    var refusal: Rejection {
        guard passkey != nil, case .failure(let error) = verdict else {
            return Rejection(.passkeyUnknown, "This passkey is not registered here (or was removed).")
        }
        return Rejection(error)
    }
    var challengeSpent: Rejection { Rejection(.challengeInvalid, "The passkey ceremony has expired or was already used; start again.") }
    var credentialGone: Rejection { Rejection(.passkeyInvalid, "The passkey was removed, or used by another sign-in at the same moment; try again.") }
}
