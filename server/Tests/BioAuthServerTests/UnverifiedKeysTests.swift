import BioAuthProtocol
import BioAuthTesting
import Foundation
import Synchronization
import Testing

@testable import BioAuthServer

/// Device keys registered without verified hardware evidence (under `--key-attestation prefer` or
/// `none`), after the switch to `require`: the operator lists and revokes them by verdict, and under
/// `--step-up-needs-verified-key` they sign in but no longer step up. On both databases.
@Suite("Keys without verified evidence")
struct UnverifiedKeysTests {
    /// Starts registering another biometric key: what a step-up allows.
    private static func addKey(_ server: TestServer, token: String) async throws -> APIResponse {
        try await server.api.call(
            .post,
            "/v1/biometric/registrations",
            json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
            token: token
        )
    }

    /// A key registered with evidence that did not verify (a PIN key's description for a biometric key).
    private static func registerRefused(_ server: TestServer, token: String) async throws -> (SoftwareDeviceKey, Registration) {
        let key = SoftwareDeviceKey.es256()
        let challenge = try await server.api.attestationChallenge(token: token).challenge.data
        let chain = try KeyAttestationTests.android.chain(
            for: .init(key.p256!.publicKey),
            description: .genuine(.pin, challenge: Array(challenge), app: KeyAttestationTests.app)
        )
        let start = try await server.api.startRegistration(
            key,
            token: token,
            keyAttestation: .androidKey(challenge: challenge, chain: chain.map { Data($0) })
        )
        return (key, try await server.api.verifyRegistration(start, key: key, token: token))
    }

    /// A key registered with genuine Android evidence: verdict `verified`.
    private static func registerVerified(_ server: TestServer, token: String) async throws -> (SoftwareDeviceKey, Registration) {
        let key = SoftwareDeviceKey.es256()
        let start = try await server.api.startRegistration(
            key,
            token: token,
            keyAttestation: try await KeyAttestationTests.androidEvidence(server, key: key, token: token)
        )
        return (key, try await server.api.verifyRegistration(start, key: key, token: token))
    }

    @Test(
        "under --step-up-needs-verified-key, a key registered without verified evidence signs in but cannot change credentials (403 reauthentication_required); a verified key still can"
    )
    func unverifiedKeyDoesNotStepUp() async throws {
        try await KeyAttestationTests.run(.prefer, configure: { $0.stepUpNeedsVerifiedKey = true }) { server in
            let token = try await server.api.newAccount().sessionToken
            let plain = SoftwareDeviceKey.es256()
            let plainRegistration = try await server.api.register(plain, token: token)
            let (refused, refusedRegistration) = try await Self.registerRefused(server, token: token)
            let (verified, verifiedRegistration) = try await Self.registerVerified(server, token: token)
            #expect(verifiedRegistration.attestation?.verdict == .verified)

            for (key, registration) in [(plain, plainRegistration), (refused, refusedRegistration)] {
                let signedIn = try await server.api.biometricSignIn(key, registrationID: registration.id)
                #expect(signedIn.session.stepUpAt == nil, "\(registration.attestation?.verdict.rawValue ?? "none")")
                #expect(try await Self.addKey(server, token: signedIn.sessionToken).errorCode == .reauthenticationRequired)
            }
            let strong = try await server.api.biometricSignIn(verified, registrationID: verifiedRegistration.id)
            #expect(strong.session.stepUpAt != nil)
            #expect(try await Self.addKey(server, token: strong.sessionToken).status == .created)
        }
        // Without the setting, such a key steps up as any key does.
        try await KeyAttestationTests.run(.prefer) { server in
            let token = try await server.api.newAccount().sessionToken
            let plain = SoftwareDeviceKey.es256()
            let registration = try await server.api.register(plain, token: token)
            #expect(try await server.api.biometricSignIn(plain, registrationID: registration.id).session.stepUpAt != nil)
        }
    }

    @Test(
        "the operator lists live device keys by verdict across accounts, and revokes the unverified ones with the sessions they signed in; verified keys stay"
    )
    func listAndRevokeByVerdict() async throws {
        try await KeyAttestationTests.run(.prefer) { server in
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            let plain = SoftwareDeviceKey.es256()
            let plainRegistration = try await server.api.register(plain, token: token)
            let (_, refusedRegistration) = try await Self.registerRefused(server, token: token)
            let (verified, verifiedRegistration) = try await Self.registerVerified(server, token: token)
            let other = try await server.api.newAccountWithKey()
            let plainSession = try await server.api.biometricSignIn(plain, registrationID: plainRegistration.id)

            let administration = server.administration
            func listed(_ filter: KeyVerdictFilter) async throws -> Set<String> { Set(try await administration.deviceKeys(filter).map(\.id)) }
            #expect(try await listed(.unverified) == [plainRegistration.id, refusedRegistration.id, other.registration.id])
            #expect(try await listed(.absent) == [plainRegistration.id, other.registration.id])
            #expect(try await listed(.refused) == [refusedRegistration.id])
            #expect(try await listed(.verified) == [verifiedRegistration.id])
            #expect(try await listed(.none).isEmpty)
            let line = try #require(try await administration.deviceKeys(.refused).first).description
            #expect(line.contains("verdict refused") && line.contains(account.user.id))

            let revoked = try await administration.revokeDeviceKeys(.unverified)
            #expect(Set(revoked.map(\.id)) == [plainRegistration.id, refusedRegistration.id, other.registration.id])
            #expect(try await listed(.unverified).isEmpty)
            #expect(try await listed(.verified) == [verifiedRegistration.id])
            // The revoked key's session ended; the key no longer signs in; the verified one does.
            #expect(try await server.api.call(.get, "/v1/sessions/current", token: plainSession.sessionToken).status == .unauthorized)
            #expect(
                try await server.api.call(.post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: plainRegistration.id))
                    .status != .created
            )
            _ = try await server.api.biometricSignIn(verified, registrationID: verifiedRegistration.id)
            let events = try await server.api.auditEvents(token: token)
            #expect(events.filter { $0.type == .adminRegistrationsRevoked }.count == 2)
        }
    }

    @Test("bioauth admin list-keys and revoke-keys print the keys by verdict; an unknown verdict is refused")
    func adminCommands() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let registrations = Registrations()
            try await KeyAttestationTests.run(.prefer, at: location) { server in
                registrations.add(try await server.api.newAccountWithKey().registration)
            }
            let registration = try #require(registrations.all.first)
            let list = try ServeCommandTests.launch(["admin", "list-keys", "--database", location, "--verdict", "unverified"])
            #expect(try await list.waitForExit() == 0)
            #expect(list.stdout.contains("\(registration.id) biometric active, verdict absent") && list.stdout.contains("1 key(s)"), "\(list.stdout)")
            let revoke = try ServeCommandTests.launch(["admin", "revoke-keys", "--database", location, "--verdict", "absent"])
            #expect(try await revoke.waitForExit() == 0)
            #expect(revoke.stdout.contains("revoked \(registration.id)") && revoke.stdout.contains("revoked 1 key(s)"), "\(revoke.stdout)")
            let bogus = try ServeCommandTests.launch(["admin", "list-keys", "--database", location, "--verdict", "trusted"])
            #expect(try await bogus.waitForExit() != 0)
            #expect(bogus.stderr.contains("--verdict trusted: one of verified, absent, refused, none, unverified"), "\(bogus.stderr)")
        }
    }
}

/// Registrations a server's run hands back.
private final class Registrations: Sendable {
    private let list = Mutex<[Registration]>([])
    var all: [Registration] { list.withLock { $0 } }
    func add(_ registration: Registration) { list.withLock { $0.append(registration) } }
}
