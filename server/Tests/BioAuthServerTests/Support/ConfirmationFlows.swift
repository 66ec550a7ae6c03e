import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// A payment as a bank's backend asks for it.
let examplePayment = ConfirmationDetails.payment(
    amount: "12.50",
    currency: "EUR",
    payeeName: "Alice Example",
    payeeAccount: "DE89 3704 0044 0532 0130 00",
    reference: "Invoice 42"
)

extension TestServer {
    /// A new service credential's secret (as `bioauth admin service-credentials create` prints it).
    func serviceCredential(name: String = "bank backend", webhookURL: String? = nil) async throws -> String {
        try await server.serviceCredentialAdministration.create(name: name, webhookURL: webhookURL).secret
    }

    /// A pending confirmation of `details` for `userID`, asked with `credential` (a new one if none).
    func confirmation(
        for userID: String,
        _ details: ConfirmationDetails = examplePayment,
        expiresIn: Int? = nil,
        credential: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> BioAuthProtocol.Confirmation {
        var credential = credential
        if credential == nil { credential = try await serviceCredential() }
        return try await api.expect(
            .created,
            BioAuthProtocol.Confirmation.self,
            .post,
            Endpoint.createConfirmation.path(),
            json: CreateConfirmationRequest(userID: userID, details: details, expiresInSeconds: expiresIn),
            token: credential,
            sourceLocation: sourceLocation
        )
    }

    /// The confirmation `id` as stored.
    func stored(_ id: String) async throws -> StoredConfirmation? {
        try await server.database.read { db in try await ConfirmationTable.find(db, id: id) }
    }
}

extension ContractClient {
    /// The approval body a device sends: a fresh challenge for `registrationID`, and `key`'s
    /// signature over the confirmation message with the hash the device derives from `details`
    /// (the confirmation's own unless a test makes the device see others), with `pin` for a PIN key.
    func approval(
        _ confirmation: BioAuthProtocol.Confirmation,
        key: SoftwareDeviceKey,
        registrationID: String,
        details: ConfirmationDetails? = nil,
        pin: String? = nil
    ) async throws -> (body: ApproveConfirmationRequest, message: Data) {
        let challenge = try await challenge(for: registrationID)
        let message = try ConfirmationMessage(
            relyingPartyID: LoopbackServer.relyingPartyID,
            registrationID: registrationID,
            challenge: challenge.challenge.data,
            detailsHash: (details ?? confirmation.details).hash(confirmationID: confirmation.id)
        ).encoded()
        return (ApproveConfirmationRequest(challengeID: challenge.challengeID, signature: Base64URLBytes(key.sign(message)), pin: pin), message)
    }

    /// `POST /v1/confirmations/{id}/approve` with `body` for the session of `token`.
    @discardableResult
    func approve(
        _ id: String,
        _ body: ApproveConfirmationRequest,
        token: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        try await call(.post, Endpoint.approveConfirmation.path(id), json: body, token: token, sourceLocation: sourceLocation)
    }

    /// The confirmation `id` as the backend with `credential` reads it.
    func serviceRead(_ id: String, credential: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> BioAuthProtocol.Confirmation
    {
        try await expect(
            .ok,
            BioAuthProtocol.Confirmation.self,
            .get,
            Endpoint.getConfirmation.path(id),
            token: credential,
            sourceLocation: sourceLocation
        )
    }
}
