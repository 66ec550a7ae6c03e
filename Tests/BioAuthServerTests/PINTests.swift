import BioAuthProtocol
import Foundation
import Testing

@Suite("PIN factor")
struct PINTests {
    @Test("a signed-in user sets a PIN and signs in with it")
    func pinFlow() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let set = try await server.api.call(.put, "/v1/users/me/pin", json: SetPINRequest(pin: "4921"), token: account.sessionToken)
            #expect(set.status == .noContent)
            let session = try await server.api.expect(.ok, SignInResponse.self, .post, "/v1/sessions/pin",
                                                      json: PINSignInRequest(username: account.user.username, pin: "4921"))
            #expect(session.session.authentication.method == .pin)
            #expect(session.user == account.user)
            try await server.api.expectError(.invalidCredentials, .post, "/v1/sessions/pin", json: PINSignInRequest(username: account.user.username, pin: "4922"))
        }
    }

    @Test("PINs must be 4 to 12 ASCII digits", arguments: ["123", "1234567890123", "12a4", "١٢٣٤", "12 34", ""])
    func invalidPIN(pin: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            try await server.api.expectError(.invalidPIN, .put, "/v1/users/me/pin", json: SetPINRequest(pin: pin), token: account.sessionToken)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("setting a PIN needs a session")
    func pinNeedsSession() async throws {
        try await TestServer.run { server in
            try await server.api.expectError(.invalidSession, .put, "/v1/users/me/pin", json: SetPINRequest(pin: "4921"))
        }
    }

    @Test("a user without a PIN gets invalid_credentials, like a wrong PIN")
    func noPINSet() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            try await server.api.expectError(.invalidCredentials, .post, "/v1/sessions/pin", json: PINSignInRequest(username: user.username, pin: "0000"))
        }
    }
}
