import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// Nobody acts on another user's registrations or sessions, and nobody registers without a session.
@Suite("Authorization")
struct AuthorizationTests {
    @Test("registration needs a session")
    func registrationWithoutSession() async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidSession,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey())
            )
            try await server.api.expectError(.invalidSession, .get, "/v1/biometric/registrations")
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("another user's registration is not found: not verified, not deleted, not listed")
    func crossUserRegistration() async throws {
        try await TestServer.run { server in
            let api = server.api
            let alice = try await api.newAccount()
            let bob = try await api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let start = try await api.startRegistration(key, token: alice.sessionToken)
            let signature = key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)

            let before = try await server.snapshot()
            try await api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/registrations/\(start.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: bob.sessionToken
            )
            try await api.expectError(.registrationNotFound, .delete, "/v1/biometric/registrations/\(start.registrationID)", token: bob.sessionToken)
            #expect(try await server.snapshot() == before, "nothing changed, the challenge included")
            let bobs = try await api.registrationList(token: bob.sessionToken)
            #expect(bobs.registrations.isEmpty)

            // Alice's challenge survived Bob's attempt.
            _ = try await api.expect(
                .ok,
                RegistrationResponse.self,
                .post,
                "/v1/biometric/registrations/\(start.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: alice.sessionToken
            )
        }
    }

    @Test("a biometric session belongs to the key's owner, whoever asked for the challenge")
    func biometricSessionOwner() async throws {
        try await TestServer.run { server in
            let (alice, key, registration) = try await server.api.newAccountWithKey(.ed25519())
            let session = try await server.api.biometricSignIn(key, registrationID: registration.id)
            #expect(session.user.id == alice.user.id)
        }
    }

    @Test("the audit trail shows only the caller's events")
    func auditIsPrivate() async throws {
        try await TestServer.run { server in
            let alice = try await server.api.newAccount()
            let bob = try await server.api.newAccount()
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: bob.sessionToken).events
            let alicesEvents = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: alice.sessionToken).events
            #expect(events.count == 2)
            #expect(Set(events.map(\.id)).isDisjoint(with: alicesEvents.map(\.id)))
        }
    }
}
