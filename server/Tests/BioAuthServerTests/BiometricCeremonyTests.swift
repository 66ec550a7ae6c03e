import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// The key variants the contract accepts: both algorithms, both encodings each.
enum KeyVariant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case es256X963, es256SPKI, ed25519Raw, ed25519SPKI

    var key: SoftwareDeviceKey {
        switch self {
        case .es256X963, .es256SPKI: .es256()
        case .ed25519Raw, .ed25519SPKI: .ed25519()
        }
    }

    var encoding: SoftwareDeviceKey.Encoding {
        switch self {
        case .es256X963, .ed25519Raw: .x963OrRaw
        case .es256SPKI, .ed25519SPKI: .spki
        }
    }

    var testDescription: String { rawValue }
}

@Suite("Biometric key ceremonies")
struct BiometricCeremonyTests {
    @Test("register a device key, then sign in with it", arguments: KeyVariant.allCases)
    func registerAndSignIn(variant: KeyVariant) async throws {
        try await TestServer.run { server in
            let api = server.api
            let account = try await api.newAccount()
            let key = variant.key
            let start = try await api.startRegistration(key, token: account.sessionToken, encoding: variant.encoding)
            #expect(start.challenge.data.count == 32)
            #expect(start.expiresAt.timeIntervalSince(server.clock.now) <= 120)

            let pending = try await api.registrationList(token: account.sessionToken)
            #expect(pending.registrations.map(\.status) == [.pending])
            try await api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: start.registrationID)
            )

            let signature = key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)
            let registration = try await api.expect(
                .ok,
                RegistrationResponse.self,
                .post,
                "/v1/biometric/registrations/\(start.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: account.sessionToken
            ).registration
            #expect(registration.status == .active)
            #expect(registration.algorithm == key.algorithm)
            #expect(registration.label == "test phone")
            #expect(registration.lastUsedAt == nil)

            let session = try await api.biometricSignIn(key, registrationID: registration.id)
            #expect(session.user == account.user)
            #expect(session.session.authentication == .init(method: .biometric, registrationID: registration.id))
            #expect(session.sessionToken != account.sessionToken)

            let listed = try await api.registrationList(token: session.sessionToken)
            let lastUsed = try #require(listed.registrations.first?.lastUsedAt)
            #expect(Int64((lastUsed.timeIntervalSince1970 * 1000).rounded()) == Int64((server.clock.now.timeIntervalSince1970 * 1000).rounded(.down)))
        }
    }

    @Test("deleting a registration ends the sessions it created and stops its challenges")
    func deleteRegistrationEndsItsSessions() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, key, registration) = try await api.newAccountWithKey()
            let biometricSession = try await api.biometricSignIn(key, registrationID: registration.id)
            let openChallenge = try await api.signedAuthentication(key, registrationID: registration.id)

            let deleted = try await api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: account.sessionToken)
            #expect(deleted.status == .noContent)
            try await api.expectError(.invalidSession, .get, "/v1/sessions/current", token: biometricSession.sessionToken)
            try await api.call(.get, "/v1/sessions/current", token: account.sessionToken)  // the password session lives on
            try await api.expectError(.challengeInvalid, .post, "/v1/sessions/biometric", json: openChallenge)
            try await api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: registration.id)
            )
            try await api.expectError(.registrationNotFound, .delete, "/v1/biometric/registrations/\(registration.id)", token: account.sessionToken)
            let listed = try await api.registrationList(token: account.sessionToken)
            #expect(listed.registrations.isEmpty)
        }
    }

    @Test("the same public key cannot be registered twice, in either encoding, even after revocation")
    func duplicatePublicKey() async throws {
        try await TestServer.run { server in
            let api = server.api
            let alice = try await api.newAccount()
            let bob = try await api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let registration = try await api.register(key, token: alice.sessionToken)
            let before = try await server.snapshot()
            for (token, encoding) in [(alice.sessionToken, SoftwareDeviceKey.Encoding.x963OrRaw), (bob.sessionToken, .spki)] {
                try await api.expectError(
                    .duplicateRegistration,
                    .post,
                    "/v1/biometric/registrations",
                    json: StartRegistrationRequest(algorithm: .es256, publicKey: key.publicKey(encoding)),
                    token: token
                )
            }
            #expect(try await server.snapshot() == before)
            try await api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: alice.sessionToken)
            try await api.expectError(
                .duplicateRegistration,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: key.publicKey()),
                token: alice.sessionToken
            )
        }
    }

    @Test("a user holds at most 10 registrations")
    func tooManyRegistrations() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            for _ in 0..<10 {
                try await server.api.register(.ed25519(), token: account.sessionToken)
            }
            let before = try await server.snapshot()
            try await server.api.expectRegistrationRefused(.tooManyRegistrations, token: account.sessionToken)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("the audit trail records the ceremonies, newest first")
    func auditTrail() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (_, key, registration) = try await api.newAccountWithKey(.ed25519())
            let session = try await api.biometricSignIn(key, registrationID: registration.id)
            let audit = try await api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: session.sessionToken)
            #expect(audit.events.map(\.type) == [.biometricSignIn, .registrationVerified, .registrationStarted, .passwordSignIn, .userCreated])
            #expect(audit.events.first?.sessionID == session.session.id)
            #expect(audit.events.first?.registrationID == registration.id)
            #expect(audit.events.allSatisfy { $0.outcome == .success })
        }
    }
}
