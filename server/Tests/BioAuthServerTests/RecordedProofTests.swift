import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// A proof may complete without making a session (``AccountCore/record(_:as:)``, the purpose an
/// approval needs), under the same rules as a sign-in, on either database.
@Suite("Proofs recorded without a session")
struct RecordedProofTests {
    /// A biometric key's signature over a fresh challenge, read as the sign-in reads it.
    private static func proof(_ server: TestServer, _ key: SoftwareDeviceKey, _ registration: Registration) async throws -> DeviceKeyProof {
        let signed = try await server.api.signedAuthentication(key, registrationID: registration.id)
        let assertion = try await server.server.services.biometrics.assertions.read(
            challengeID: signed.challengeID,
            signature: signed.signature,
            kind: .biometric
        )
        return DeviceKeyProof(signatureOf: assertion, factor: .biometric)
    }

    @Test("a recorded proof spends its challenge, records the key's use and its event, and makes no session; a replay of it is refused")
    func recordMakesNoSession() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let core = server.server.services.core
            let proof = try await Self.proof(server, key, registration)
            let sessions = try await server.snapshot().tables["sessions", default: []]
            let user = try await core.record(proof, as: .biometricSignIn)
            #expect(user.id == account.user.id)
            #expect(try await server.snapshot().tables["sessions", default: []] == sessions, "no session was made")
            let listed = try await server.api.registrationList(token: account.sessionToken).registrations
            #expect(listed.first { $0.id == registration.id }?.lastUsedAt != nil, "the key's use is recorded")
            let events = try await server.api.auditEvents(token: account.sessionToken)
            #expect(events.contains { $0.type == .biometricSignIn && $0.outcome == .success && $0.sessionID == nil })
            await #expect { try await core.record(proof, as: .biometricSignIn) } throws: { ($0 as? Rejection)?.code == .challengeInvalid }
        }
    }

    @Test("a recorded proof is refused like a sign-in when its key was revoked or the account changed since its challenge")
    func recordFollowsTheRules() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let core = server.server.services.core
            let beforeRecovery = try await Self.proof(server, key, registration)
            _ = try await server.administration.revokeSessions(try await server.administration.account(account.user.id))
            await #expect { try await core.record(beforeRecovery, as: .biometricSignIn) } throws: { ($0 as? Rejection)?.code == .challengeInvalid }
            let fresh = try await Self.proof(server, key, registration)
            _ = try await server.administration.revokeDevices(try await server.administration.account(account.user.id))
            await #expect { try await core.record(fresh, as: .biometricSignIn) } throws: { ($0 as? Rejection)?.code == .challengeInvalid }
        }
    }
}
