import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer
@testable import BioAuthWebAuthn

/// Passkeys under `--key-attestation require`, on both databases: a fresh stolen session token
/// (inside the step-up window) cannot add a passkey that nothing vouches for, by starting a
/// ceremony or by finishing one opened before the switch; with `--webauthn-attestation direct`
/// only a passkey certified by a listed root registers; `--allow-unattested-passkeys` is the
/// operator's explicit opt-out.
@Suite("Passkeys under key attestation require")
struct PasskeysUnderRequireTests {
    static let appID = "ABCDE12345.com.example.bank"
    static let vendor = try! AttestationCA(validity: Date().addingTimeInterval(-86_400)...Date().addingTimeInterval(86_400 * 365))

    /// The vendor's root as an operator's `--webauthn-trust-roots` file.
    static let rootsFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-webauthn-roots-\(UUID().uuidString).pem").path
        try! vendor.root.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// `--key-attestation require` for one iOS app, then `more`.
    static func require(_ more: @escaping (inout ServerConfiguration) -> Void = { _ in }) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.keyAttestation = .require
            configuration.appAttestAppIDs = [appID]
            more(&configuration)
        }
    }

    @Test("under require, a fresh session starting a passkey without verified attestation is 403 attestation_required, and nothing is stored")
    func startRefused() async throws {
        try await TestServer.run(configure: Self.require()) { server in
            let token = try await server.api.newAccount().sessionToken
            let before = try await server.snapshot()
            let refusal = try await server.api.expectError(
                .attestationRequired,
                .post,
                Endpoint.createPasskeyRegistrationOptions.path(),
                token: token
            )
            #expect(refusal.status == .forbidden)
            let after = try await server.snapshot()
            #expect(after.tables["webauthn_challenges"] == before.tables["webauthn_challenges"])
            #expect(after.tables["passkeys"] == before.tables["passkeys"])
        }
    }

    @Test("a ceremony opened before a restart under require cannot finish after it: 403 attestation_required, no passkey")
    func openCeremonyRefusedAfterSwitch() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let (token, ceremonyID, credential) = try await TestServer.run(at: location) { server in
                let token = try await server.api.newAccount().sessionToken
                let ceremony = try await server.api.passkeyRegistrationOptions(token: token)
                let credential = try SoftwareAuthenticator(origin: APIClient.origin).register(ceremony.publicKey)
                return (token, ceremony.ceremonyID, credential)
            }
            try await TestServer.run(at: location, configure: Self.require()) { server in
                let finish = RegisterPasskeyRequest(ceremonyID: ceremonyID, credential: credential, label: "thief")
                try await server.api.expectError(.attestationRequired, .post, Endpoint.registerPasskey.path(), json: finish, token: token)
                let listed = try await server.api.expect(.ok, PasskeyListResponse.self, .get, Endpoint.listPasskeys.path(), token: token)
                #expect(listed.passkeys.isEmpty)
            }
        }
    }

    @Test("under require with --webauthn-attestation direct, none and self attestation are refused and a listed root's passkey registers")
    func directAcceptsOnlyCertified() async throws {
        let configure = Self.require {
            $0.webAuthnAttestation = .direct
            $0.webAuthnTrustRootsFile = Self.rootsFile
        }
        try await TestServer.run(configure: configure) { server in
            let token = try await server.api.newAccount().sessionToken
            for attestation in [SoftwareAuthenticator.Attestation.none, .packedSelf] {
                let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
                authenticator.attestation = attestation
                let ceremony = try await server.api.passkeyRegistrationOptions(token: token)
                let finish = RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.register(ceremony.publicKey))
                try await server.api.expectError(.passkeyInvalid, .post, Endpoint.registerPasskey.path(), json: finish, token: token)
            }
            let certified = SoftwareAuthenticator(origin: APIClient.origin)
            certified.attestation = .packed(Self.vendor)
            try await server.api.addPasskey(certified, token: token)
            #expect(try await server.api.passkeySignIn(certified).status == .ok)
        }
    }

    @Test("with --allow-unattested-passkeys, require lets an account add a passkey without attestation")
    func operatorOptsOut() async throws {
        try await TestServer.run(configure: Self.require { $0.allowUnattestedPasskeys = true }) { server in
            let token = try await server.api.newAccount().sessionToken
            try await server.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: token)
        }
    }
}
