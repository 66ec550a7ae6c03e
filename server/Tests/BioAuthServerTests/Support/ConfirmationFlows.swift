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
