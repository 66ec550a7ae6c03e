import BioAuthProtocol
import Foundation

/// Transaction confirmation's ceremonies (docs/protocol/CONFIRMATIONS.md): the bank's backend
/// asks, a device key approves.
extension CeremonyTransport {
    /// The bank's backend, with service `credential`, asks `userID` to confirm `details`.
    package func createConfirmation(
        _ details: ConfirmationDetails,
        for userID: String,
        credential: String,
        expiresIn: Int? = nil
    ) async throws -> Confirmation {
        try await exchange(
            .createConfirmation,
            id: nil,
            body: CreateConfirmationRequest(userID: userID, details: details, expiresInSeconds: expiresIn),
            token: credential,
            as: Confirmation.self
        )
    }

    /// The approval body a device sends for `confirmation`: a fresh challenge for
    /// `registrationID`, and `key`'s signature over the confirmation message with the hash the
    /// device derives from `details` (the confirmation's own unless a test makes the device see
    /// others), with `pin` for a PIN key; and the message signed.
    package func signedApproval(
        _ confirmation: Confirmation,
        key: SoftwareDeviceKey,
        registrationID: String,
        details: ConfirmationDetails? = nil,
        pin: String? = nil
    ) async throws -> (body: ApproveConfirmationRequest, message: Data) {
        let challenge = try await challenge(for: registrationID)
        let message = try ConfirmationMessage(
            relyingPartyID: relyingPartyID,
            registrationID: registrationID,
            challenge: challenge.challenge.data,
            detailsHash: (details ?? confirmation.details).hash(confirmationID: confirmation.id)
        ).encoded()
        let body = ApproveConfirmationRequest(challengeID: challenge.challengeID, signature: Base64URLBytes(key.sign(message)), pin: pin)
        return (body, message)
    }

    /// Approves `confirmation` with `key` for the session of `token`: a challenge, the signature,
    /// the approved confirmation.
    @discardableResult
    package func approveConfirmation(
        _ confirmation: Confirmation,
        key: SoftwareDeviceKey,
        registrationID: String,
        token: String
    ) async throws -> Confirmation {
        try await exchange(
            .approveConfirmation,
            id: confirmation.id,
            body: try await signedApproval(confirmation, key: key, registrationID: registrationID).body,
            token: token,
            as: Confirmation.self
        )
    }
}
