import BioAuthKit
import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// The bank's backend beside a loopback server: a service credential, and confirmations asked and
/// read with it over HTTP.
extension LoopbackServer {
    /// A new service credential's secret (as `bioauth admin service-credentials create` prints it).
    func serviceCredential() async throws -> String {
        try await server.serviceCredentialAdministration.create(name: "bank backend", webhookURL: nil).secret
    }

    /// Asks `account`'s user to confirm `details` (`POST /v1/service/confirmations`).
    func askConfirmation(_ details: ConfirmationDetails, of account: Account, credential: String) async throws -> BioAuthProtocol.Confirmation {
        let userID = try #require(await account.client.user?.id)
        let body = try WireJSON.makeEncoder().encode(CreateConfirmationRequest(userID: userID, details: details))
        let (data, response) = try await raw(.createConfirmation, json: body, token: credential)
        try #require(response.statusCode == 201, "\(String(decoding: data, as: UTF8.self))")
        return try WireJSON.makeDecoder().decode(BioAuthProtocol.Confirmation.self, from: data)
    }

    /// The confirmation `id` as the bank's backend reads it (`GET /v1/service/confirmations/{id}`).
    func readConfirmation(_ id: String, credential: String) async throws -> BioAuthProtocol.Confirmation {
        let (data, response) = try await raw(.getConfirmation, id: id, token: credential)
        try #require(response.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return try WireJSON.makeDecoder().decode(BioAuthProtocol.Confirmation.self, from: data)
    }
}
