import Foundation

/// Transaction confirmation (docs/protocol/CONFIRMATIONS.md): the bank's backend asks, the user
/// sees the amount and the payee in the platform's own prompt, and the device key signs the
/// confirmation message over the hash of exactly those details.
extension BioAuthClient {
    /// The signed-in user's pending confirmations, oldest first (`GET /v1/confirmations`), each
    /// with the text this device shows for it or why it refuses to (``PendingConfirmation``).
    ///
    /// - Throws: ``BioAuthError/notSignedIn``; the server's errors.
    public func pendingConfirmations() async throws(BioAuthError) -> [PendingConfirmation] {
        let list = try await api.call(.listConfirmations, token: try requireToken(), as: ConfirmationList.self)
        return list.confirmations.filter { $0.status == .pending }.map(PendingConfirmation.init)
    }

    /// Approves `pending` with the biometric device key: one prompt, whose reason is the text this
    /// device derived from the details (``PendingConfirmation/text``), passed as every prompt's
    /// reason is: the signing context's `localizedReason`, which "is displayed in the authentication
    /// UI" of a keychain operation with `kSecUseAuthenticationContext` (LAContext.h). The key signs
    /// ``ConfirmationMessage`` over a fresh challenge (`POST /v1/biometric/challenges`) and the hash
    /// this device computes from the details; with an App Attest assertion over the message when
    /// the key registered with App Attest evidence (``BioAuthConfiguration/appAttest``).
    ///
    /// - Returns: The approved confirmation, with its receipt.
    /// - Throws: ``BioAuthError/confirmationRefused(_:)`` before any request or prompt when this
    ///   device refuses the details; ``BioAuthError/itemNotFound`` or
    ///   ``BioAuthError/biometryChanged`` as ``signInWithBiometrics(prompt:)``; the prompt's errors;
    ///   the server's: `confirmation_closed` (approved, declined, expired or blocked meanwhile),
    ///   `signature_invalid`, `app_attest_assertion_invalid`, `not_found`.
    @discardableResult
    public func approveConfirmationWithBiometrics(_ pending: PendingConfirmation) async throws(BioAuthError) -> Confirmation {
        let text = try PendingConfirmation.shownText(of: pending.confirmation)
        let token = try requireToken()
        guard let record = enrollment else { throw .itemNotFound }
        if let lost = record.lost { throw lost == .biometryChanged ? .biometryChanged : .itemNotFound }
        if case .lost(let loss) = await keys.usability(ofKeyNamed: record.keyName) { throw await markLost(record, loss) }
        do throws(BioAuthError) {
            let registration = (id: record.registrationID, appAttestKeyID: record.appAttestKeyID)
            return try await approve(pending.confirmation, registration: registration, token: token) { message throws(BioAuthError) in
                do throws(BioAuthError) {
                    return try await keys.sign(bytes: message, withKeyNamed: record.keyName, prompt: text.text)
                } catch .biometryChanged {
                    throw await markLost(record, .biometryChanged)
                } catch .itemNotFound {
                    throw await markLost(record, .keyMissing)
                }
            }
        } catch  where error.serverCode == .registrationNotFound {
            await removeLocalRegistration()
            lastReconciliation = .localRegistrationRemoved(registrationID: record.registrationID)
            throw error
        }
    }

    /// Approves `pending` with this device's PIN key and `pin` (no prompt: the app shows
    /// ``PendingConfirmation/text`` itself and asks for the PIN). Only where the server allows
    /// the PIN to confirm (`--confirmation-pin allow`).
    ///
    /// - Returns: The approved confirmation, with its receipt.
    /// - Throws: ``BioAuthError/confirmationRefused(_:)`` before any request when this device
    ///   refuses the details; ``BioAuthError/itemNotFound`` when no PIN is set on this device; the
    ///   server's: `confirmation_factor_not_allowed` (this server does not take a PIN for
    ///   confirmations), `invalid_credentials`, `pin_locked`, `confirmation_closed`, ….
    @discardableResult
    public func approveConfirmationWithPIN(_ pending: PendingConfirmation, pin: String) async throws(BioAuthError) -> Confirmation {
        _ = try PendingConfirmation.shownText(of: pending.confirmation)
        let token = try requireToken()
        guard let record = pinRegistration else { throw .itemNotFound }
        do throws(BioAuthError) {
            let registration = (id: record.registrationID, appAttestKeyID: record.appAttestKeyID)
            return try await approve(pending.confirmation, registration: registration, token: token, pin: pin) { message throws(BioAuthError) in
                try await keys.sign(bytes: message, withKeyNamed: record.keyName, prompt: "")
            }
        } catch  where error == .itemNotFound || error.serverCode == .registrationNotFound {
            await removeLocalPIN()
            throw .itemNotFound
        }
    }

    /// Declines `pending` (`POST /v1/confirmations/{id}/decline`); details this device refuses to
    /// show may be declined too.
    ///
    /// - Returns: The declined confirmation.
    /// - Throws: ``BioAuthError/notSignedIn``; the server's: `confirmation_closed`, `not_found`.
    @discardableResult
    public func declineConfirmation(_ pending: PendingConfirmation) async throws(BioAuthError) -> Confirmation {
        try await api.call(.declineConfirmation, id: pending.id, token: try requireToken(), as: Confirmation.self)
    }

    /// A fresh challenge for the registration, the confirmation message over it and the hash of
    /// `confirmation`'s details computed here, its signature by `sign`, an assertion by the App
    /// Attest key the registration was vouched for by (if any) over the same bytes, and
    /// `POST /v1/confirmations/{id}/approve`.
    private func approve(
        _ confirmation: Confirmation,
        registration: (id: String, appAttestKeyID: String?),
        token: String,
        pin: String? = nil,
        sign: (Data) async throws(BioAuthError) -> Data
    ) async throws(BioAuthError) -> Confirmation {
        let challenge = try await authenticationChallenge(for: registration.id)
        let message = ConfirmationMessage(
            relyingPartyID: configuration.relyingPartyID,
            registrationID: registration.id,
            challenge: challenge.message.challenge,
            detailsHash: confirmation.details.hash(confirmationID: confirmation.id)
        )
        guard let bytes = try? message.encoded() else { throw .systemFailure("confirmation message field too long") }
        let signature = try await sign(bytes)
        var assertion: Data?
        if let keyID = registration.appAttestKeyID { assertion = await appAttestation.assertion(keyID: keyID, over: bytes) }
        return try await api.call(
            .approveConfirmation,
            id: confirmation.id,
            body: ApproveConfirmationRequest(
                challengeID: challenge.id,
                signature: Base64URLBytes(signature),
                pin: pin,
                appAttestAssertion: assertion.map(Base64URLBytes.init)
            ),
            token: token,
            as: Confirmation.self
        )
    }
}
