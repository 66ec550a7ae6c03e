import BioAuthProtocol
import Crypto
import Foundation

/// Approving a confirmation with a device key (`POST /v1/confirmations/{id}/approve`): the key
/// signs ``ConfirmationMessage`` over a fresh authentication challenge and the stored details'
/// hash, and the account core records the approval in the completion's one transaction
/// (``AccountCore/record(_:approving:now:)``): once, if still pending, under every rule of a
/// sign-in (the challenge spent, the key active, the account's epoch unmoved), a failure counted
/// against the confirmation (five block it).
///
/// A PIN key approves only where the operator allows it (``pinAllowed``), in a PIN sign-in's
/// order: the signature first, then the PIN attempt's reservation, then the PIN. Under
/// `--key-attestation require`, a key kept with App Attest evidence must bring an assertion of
/// that App Attest key over SHA-256 of the message (``KeyAttestationService/checkAssertion(registrationID:clientDataHash:assertion:)``).
struct ConfirmationApprovals: Sendable {
    let confirmations: ConfirmationService
    let core: AccountCore
    let assertions: KeyAssertionReader
    let pins: PINService
    let attestations: KeyAttestationService
    let receipts: ConfirmationReceipts
    /// `--confirmation-pin allow`.
    let pinAllowed: Bool

    /// Approves the caller's confirmation `id` with `request`'s signature (and PIN); returns it approved.
    func approve(id: String, _ request: ApproveConfirmationRequest, for caller: Caller) async throws -> Confirmation {
        let confirmation = try await confirmations.pending(id: id, for: caller)
        let factor: AuthenticationMethod = request.pin == nil ? .biometric : .pin
        guard factor != .pin || pinAllowed else {
            throw Rejection(.confirmationFactorNotAllowed, "This server does not let a PIN approve confirmations.")
        }
        let assertion = try await assertions.read(
            challengeID: request.challengeID,
            signature: request.signature,
            kind: factor == .pin ? .pin : .biometric,
            userID: caller.userID,
            signing: .confirmation(detailsHash: confirmation.detailsHash)
        )
        let signed = DeviceKeyProof(signatureOf: assertion, factor: factor)
        guard signed.holds else { return try await record(signed, approving: confirmation, stated: nil) }  // counts the failure, throws
        let appAttest = try await attestations.checkAssertion(
            registrationID: assertion.registrationID,
            clientDataHash: Data(SHA256.hash(data: assertion.message)),
            assertion: request.appAttestAssertion?.data
        )
        var proof = signed
        if let pin = request.pin { proof = try await pins.proof(of: assertion, pin: pin, event: .confirmationApproved) }
        let stated = ConfirmationReceipts.Proof.deviceKey(assertion, factor: factor, signature: request.signature.data, appAttest: appAttest)
        return try await record(proof, approving: confirmation, stated: stated)
    }

    /// Records `proof`'s approval of `confirmation` through the account core, whatever the factor
    /// (a passkey's too): when the proof holds, with the receipt that states `stated` at this
    /// moment; when it does not, the failure is counted and the proof's refusal thrown. Returns
    /// the confirmation as it now stands.
    func record(
        _ proof: some FactorProof,
        approving confirmation: StoredConfirmation,
        stated: ConfirmationReceipts.Proof?
    ) async throws -> Confirmation {
        let now = core.time.now()
        var approval = SignInCompletion.ConfirmationApproval(confirmationID: confirmation.id, receipt: "")
        if proof.holds, let stated { approval.receipt = try await receipts.receipt(for: confirmation, proof: stated, at: now) }
        _ = try await core.record(proof, approving: approval, now: now)
        return try await confirmations.read(id: confirmation.id)
    }
}
