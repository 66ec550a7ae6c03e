import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// The server held to docs/confirmation-vectors.json over HTTP: a backend's request with a valid
/// vector's details is created with the vector's text; one with an invalid vector's details is a
/// 400 with the vector's code and its field in `reason`, and stores nothing.
@Suite("Confirmation vectors at the server")
struct ConfirmationVectorRequestTests {
    @Test("every valid vector's details are created, with the vector's text and the hash of the server's canonical form")
    func validCreated() async throws {
        let vectors = try ConfirmationVectors.load()
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            for vector in vectors.valid {
                let created = try await server.confirmation(for: account.user.id, vector.details, credential: credential)
                #expect(created.text == vector.text, "\(vector.name)")
                #expect(created.details == vector.details, "\(vector.name)")
                #expect(created.detailsHash.data == vector.details.hash(confirmationID: created.id), "\(vector.name)")
            }
        }
    }

    @Test("every invalid vector's details are a 400 with the vector's code and field, and store nothing")
    func invalidRefused() async throws {
        let vectors = try ConfirmationVectors.load()
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let before = try await server.snapshot().tables["confirmations", default: []]
            for vector in vectors.invalid {
                // The file's members as they are: a member no version knows must reach the server.
                let body = try JSONSerialization.data(withJSONObject: ["user_id": account.user.id, "details": vector.members] as [String: Any])
                let code = ErrorCode(rawValue: vector.code)
                let answer = try await server.api.expectError(code, .post, Endpoint.createConfirmation.path(), raw: body, token: credential)
                #expect(try answer.decode(ErrorResponse.self).error.reason == vector.field, "\(vector.name)")
            }
            #expect(try await server.snapshot().tables["confirmations", default: []] == before)
        }
    }
}
