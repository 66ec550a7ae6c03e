import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Approving a confirmation with a passkey on the account page
/// (`POST /web/confirmations/{id}/passkey-options`, then `…/passkey`): a ceremony bound to the
/// caller's session and to the confirmation (``ConfirmationCeremony``: its challenge is the
/// confirmation's message, its kind ``Ceremony/confirmation``, so it serves no sign-in or
/// re-authentication and theirs serve no confirmation), user verification required whatever the
/// operator set for sign-ins; then the assertion checked as a sign-in's is
/// (``PasskeyAssertionCheck``) and the approval recorded as a device key's is
/// (``ConfirmationApprovals/record(_:approving:stated:)``: through the account core, in its one
/// transaction).
struct PasskeyConfirmations: Sendable {
    let confirmations: ConfirmationService
    /// Records an approval, whatever the factor.
    let approvals: ConfirmationApprovals
    let database: any DatabaseProvider
    /// The relying party, with user verification required.
    let relyingParty: RelyingParty
    let core: AccountCore
    let challengeTTL: Duration

    /// The service over `relyingParty`, whose user-verification setting it raises to `required`.
    init(
        confirmations: ConfirmationService,
        approvals: ConfirmationApprovals,
        database: any DatabaseProvider,
        relyingParty: RelyingParty,
        core: AccountCore,
        challengeTTL: Duration
    ) {
        var strict = relyingParty
        strict.userVerification = .required
        self.confirmations = confirmations
        self.approvals = approvals
        self.database = database
        self.relyingParty = strict
        self.core = core
        self.challengeTTL = challengeTTL
    }

    /// Request options for approving the caller's pending confirmation `id` with one of their
    /// passkeys: `404 not_found` for another account's confirmation or an account without a
    /// passkey, `409 confirmation_closed` for one no longer pending.
    func options(confirmationID id: String, for caller: Caller) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let confirmation = try await confirmations.pending(id: id, for: caller)
        let challenge = try ConfirmationCeremony.challenge(relyingPartyID: relyingParty.id, detailsHash: confirmation.detailsHash)
        let ceremony = PasskeyRequestCeremony(database: database, relyingParty: relyingParty, time: core.time, challengeTTL: challengeTTL)
        return try await ceremony.open(
            .confirmation,
            challenge: challenge,
            listing: { db in
                let allowed = try await PasskeyTable.all(db, userID: caller.userID).map(\.descriptor)
                guard !allowed.isEmpty else { throw Rejection(.notFound, "This account has no passkey; approve it in the app on your phone.") }
                return (caller.userID, allowed)
            },
            usernameFirst: true,
            sessionID: caller.sessionID
        )
    }

    /// Approves the caller's confirmation `id` with a passkey's answer to its ceremony; returns it
    /// approved. A ceremony of another kind, session or confirmation is `401 challenge_invalid`
    /// and changes nothing; an assertion that does not hold spends the ceremony and counts against
    /// the confirmation (five block it).
    func approve(confirmationID id: String, _ request: ConfirmationPasskeyRequest, for caller: Caller) async throws -> Confirmation {
        let confirmation = try await confirmations.pending(id: id, for: caller)
        let credentialID = Array(request.credential.rawId.data)
        let (ceremony, passkey, epoch) = try await database.read { db in
            try await PasskeyAssertionCheck.read(db, ceremonyID: request.ceremonyID, kind: .confirmation, credentialID: credentialID)
        }
        // This session's ceremony, opened for exactly this confirmation's details.
        guard let ceremony, ceremony.sessionID == caller.sessionID, ceremony.userID == caller.userID,
            ConfirmationCeremony.binds(ceremony.challenge, relyingPartyID: relyingParty.id, detailsHash: confirmation.detailsHash)
        else { throw Rejection(.challengeInvalid, "No passkey ceremony with that id is open for this confirmation; start again.") }
        let verdict = PasskeyAssertionCheck.verdict(on: request.credential, answering: ceremony, passkey: passkey, relyingParty: relyingParty)
        let proof = PasskeyProof(passkey: passkey, ceremonyID: request.ceremonyID, ceremony: .confirmation, epoch: epoch ?? 0, verdict: verdict)
        let stated = passkey.map { ConfirmationReceipts.Proof.passkey($0, assertion: request.credential) }
        return try await approvals.record(proof, approving: confirmation, stated: stated)  // a proof that did not hold: counted, refused
    }
}
