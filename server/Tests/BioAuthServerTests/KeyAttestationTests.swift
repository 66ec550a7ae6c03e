import BioAuthAttestation
import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import Testing
import X509

@testable import BioAuthServer

/// Device keys' hardware evidence through the API, on both databases: under `require` only a key
/// the secure hardware vouches for registers (a hooked app's software key is refused, for a code
/// that says why, and nothing is stored); under `prefer` the verdict is recorded and shown; under
/// `none` nothing is looked at. The chains and App Attest objects come from test authorities in
/// the real formats (BioAuthTesting); the verifiers are held to real devices' evidence in
/// BioAuthAttestationTests.
@Suite("Device keys' hardware evidence")
struct KeyAttestationTests {
    static let app = AndroidAllowedApp(packageName: "com.example.bank", signingCertificateDigest: Array(SHA256.hash(data: Data("release".utf8))))
    static let appID = "ABCDE12345.com.example.bank"
    static let android = try! AndroidAttestationCA(validity: Date().addingTimeInterval(-86_400)...Date().addingTimeInterval(86_400 * 365))
    static let apple = try! AppAttestAuthority(validity: Date().addingTimeInterval(-86_400)...Date().addingTimeInterval(86_400 * 365))

    /// The Android test root as an operator's `--android-attestation-roots` file.
    static let rootsFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-test-roots-\(UUID().uuidString).pem").path
        try! android.root.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// Runs `body` against a server under `mode` that trusts the test authorities, over the
    /// database at `location` when given, with `more` settings.
    static func run(
        _ mode: KeyAttestationMode,
        at location: String? = nil,
        configure more: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer) async throws -> Void
    ) async throws {
        let configure: (inout ServerConfiguration) -> Void = { configuration in
            configuration.keyAttestation = mode
            configuration.androidAllowedApps = [app.description]
            configuration.androidAttestationRootsFile = rootsFile
            configuration.appAttestAppIDs = [appID]
            more(&configuration)
        }
        try await TestServer.run(at: location, appAttestRoots: [apple.root], configure: configure, body)
    }

    /// Android evidence for `key`, made with a fresh challenge of the session's.
    static func androidEvidence(
        _ server: TestServer,
        key: SoftwareDeviceKey,
        kind: RegistrationKind = .biometric,
        token: String
    ) async throws -> KeyAttestationEvidence {
        try androidEvidence(key: key, kind: kind, challenge: try await server.api.attestationChallenge(token: token).challenge.data)
    }

    /// Android evidence for `key` made with `challenge`, by `authority` (the test root's, or a forger's).
    static func androidEvidence(
        key: SoftwareDeviceKey,
        kind: RegistrationKind = .biometric,
        challenge: Data,
        by authority: AndroidAttestationCA = android
    ) throws -> KeyAttestationEvidence {
        let chain = try authority.chain(for: .init(key.p256!.publicKey), description: .genuine(kind, challenge: Array(challenge), app: app))
        return .androidKey(challenge: challenge, chain: chain.map { Data($0) })
    }

    /// A CA of an attacker's, in the real format but no trusted root's.
    static func forger() throws -> AndroidAttestationCA {
        try AndroidAttestationCA(validity: Date().addingTimeInterval(-60)...Date().addingTimeInterval(3600))
    }

    @Test("under require, a key without evidence, or with a hooked app's software chain, is refused for its reason and nothing is stored")
    func requireRefuses() async throws {
        try await Self.run(.require) { server in
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            let before = try await server.snapshot()
            try await server.api.startRefused(.attestationRequired, key: .es256(), evidence: nil, token: token)
            // Frida on a rooted phone: a software key, "attested" by a CA of the attacker's.
            let key = SoftwareDeviceKey.es256()
            let challenge = try await server.api.attestationChallenge(token: token).challenge.data
            let refusal = try await server.api.startRefused(
                .attestationRefused,
                key: key,
                evidence: try Self.androidEvidence(key: key, challenge: challenge, by: try Self.forger()),
                token: token
            )
            #expect(refusal.error.reason == "chain_untrusted")
            #expect(try await server.api.registrationList(token: token).registrations.isEmpty)
            let after = try await server.snapshot()
            #expect(after.tables["registrations"] == before.tables["registrations"])
            let events = try await server.api.auditEvents(token: token).map(\.type)
            #expect(events.contains(.keyAttestationRefused))
        }
    }

    @Test("under require, a genuine Android biometric key and PIN key register, and the list shows what the hardware proved")
    func requireAcceptsAndroid() async throws {
        try await Self.run(.require) { server in
            let token = try await server.api.newAccount().sessionToken
            let key = SoftwareDeviceKey.es256()
            let start = try await server.api.startRegistration(
                key,
                token: token,
                keyAttestation: try await Self.androidEvidence(server, key: key, token: token)
            )
            let registration = try await server.api.verifyRegistration(start, key: key, token: token)
            #expect(
                registration.attestation
                    == KeyAttestationResult(format: "android-key", verdict: .verified, securityLevel: "TEE", app: "com.example.bank")
            )
            // The chain is kept with the registration, to check again later.
            let kept = try await server.server.database.read { db in try await RegistrationTable.evidence(db, id: registration.id) }
            let stored = try WireJSON.makeDecoder().decode(KeyAttestationEvidence.self, from: try #require(kept))
            #expect(stored.format == "android-key" && stored.certificateChain?.count == 3)
            let pinKey = SoftwareDeviceKey.es256()
            let pin = try await server.api.setPIN(
                "4822",
                key: pinKey,
                token: token,
                keyAttestation: try await Self.androidEvidence(server, key: pinKey, kind: .pin, token: token)
            )
            let listed = try await server.api.registrationList(token: token).registrations
            #expect(listed.first { $0.id == pin.registrationID }?.attestation?.verdict == .verified)
        }
    }

    @Test("an attestation challenge serves one registration of the session that asked for it")
    func challengeOnce() async throws {
        try await Self.run(.require) { server in
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            let key = SoftwareDeviceKey.es256()
            let evidence = try await Self.androidEvidence(server, key: key, token: token)
            _ = try await server.api.startRegistration(key, token: token, keyAttestation: evidence)
            let again = SoftwareDeviceKey.es256()
            let chain = try Self.android.chain(
                for: .init(again.p256!.publicKey),
                description: .genuine(.biometric, challenge: Array(evidence.challenge.data), app: Self.app)
            )
            let reused = try await server.api.startRefused(
                .attestationRefused,
                key: again,
                evidence: .androidKey(challenge: evidence.challenge.data, chain: chain.map { Data($0) }),
                token: token
            )
            #expect(reused.error.reason == "challenge_mismatch")
            // Another session of the same user cannot spend this session's challenge.
            let other = try await server.api.signIn(account.user.username).sessionToken
            let stolen = SoftwareDeviceKey.es256()
            let issued = try await Self.androidEvidence(server, key: stolen, token: token)
            let foreign = try await server.api.startRefused(.attestationRefused, key: stolen, evidence: issued, token: other)
            #expect(foreign.error.reason == "challenge_mismatch")
        }
    }

    @Test("under require, an iOS key registers with App Attest: the attestation first, then assertions whose counter must grow")
    func requireAcceptsAppAttest() async throws {
        try await Self.run(.require) { server in
            let token = try await server.api.newAccount().sessionToken
            let appAttestKey = P256.Signing.PrivateKey()
            let keyID = Data(AppAttestAuthority.keyID(appAttestKey.publicKey))
            func evidence(for key: SoftwareDeviceKey, counter: UInt32?) async throws -> KeyAttestationEvidence {
                let challenge = try await server.api.attestationChallenge(token: token).challenge.data
                let message = try KeyAttestationMessage(
                    relyingPartyID: LoopbackServer.relyingPartyID,
                    publicKey: key.publicKey(),
                    challenge: challenge
                ).encoded()
                let hash = Array(SHA256.hash(data: message))
                guard let counter else {
                    let attestation = try Self.apple.attestation(of: appAttestKey.publicKey, appID: Self.appID, clientDataHash: hash)
                    return .appleAppAttest(challenge: challenge, keyID: keyID, attestation: Data(attestation))
                }
                let assertion = try AppAttestAuthority.assertion(by: appAttestKey, appID: Self.appID, counter: counter, clientDataHash: hash)
                return .appleAppAttest(challenge: challenge, keyID: keyID, assertion: Data(assertion))
            }
            for counter: UInt32? in [nil, 1, 2] {
                let key = SoftwareDeviceKey.es256()
                let start = try await server.api.startRegistration(key, token: token, keyAttestation: try await evidence(for: key, counter: counter))
                let registration = try await server.api.verifyRegistration(start, key: key, token: token)
                #expect(
                    registration.attestation
                        == KeyAttestationResult(format: "apple-app-attest", verdict: .verified, securityLevel: "Secure Enclave", app: Self.appID)
                )
            }
            let replay = SoftwareDeviceKey.es256()
            let refused = try await server.api.startRefused(
                .attestationRefused,
                key: replay,
                evidence: try await evidence(for: replay, counter: 2),
                token: token
            )
            #expect(refused.error.reason == "assertion_invalid")
            // The assertion binds the key: evidence made for one key does not register another.
            let bound = try await evidence(for: .es256(), counter: 3)
            let swapped = try await server.api.startRefused(.attestationRefused, key: .es256(), evidence: bound, token: token)
            #expect(swapped.error.reason == "assertion_invalid")
        }
    }

    @Test("App Attest evidence for an Ed25519 device key, which no Secure Enclave holds, is refused as Android's is (key_properties)")
    func appAttestRefusesEd25519() async throws {
        try await Self.run(.require) { server in
            let token = try await server.api.newAccount().sessionToken
            let appAttestKey = P256.Signing.PrivateKey()
            let key = SoftwareDeviceKey.ed25519()
            let challenge = try await server.api.attestationChallenge(token: token).challenge.data
            let message = try KeyAttestationMessage(relyingPartyID: LoopbackServer.relyingPartyID, publicKey: key.publicKey(), challenge: challenge)
            let hash = Array(SHA256.hash(data: try message.encoded()))
            let attestation = try Self.apple.attestation(of: appAttestKey.publicKey, appID: Self.appID, clientDataHash: hash)
            let evidence = KeyAttestationEvidence.appleAppAttest(
                challenge: challenge,
                keyID: Data(AppAttestAuthority.keyID(appAttestKey.publicKey)),
                attestation: Data(attestation)
            )
            let refused = try await server.api.startRefused(.attestationRefused, key: key, evidence: evidence, token: token)
            #expect(refused.error.reason == "key_properties")
            #expect(try await server.api.registrationList(token: token).registrations.isEmpty)
        }
    }

    @Test("under prefer, keys register with or without valid evidence, and the verdict is recorded, shown and in the activity")
    func preferRecords() async throws {
        try await Self.run(.prefer) { server in
            let token = try await server.api.newAccount().sessionToken
            let plain = try await server.api.register(.es256(), token: token)
            #expect(plain.attestation == KeyAttestationResult(format: nil, verdict: .absent))
            let key = SoftwareDeviceKey.es256()
            let challenge = try await server.api.attestationChallenge(token: token).challenge.data
            let wrongKind = try Self.android.chain(
                for: .init(key.p256!.publicKey),
                description: .genuine(.pin, challenge: Array(challenge), app: Self.app)
            )
            let start = try await server.api.startRegistration(
                key,
                token: token,
                keyAttestation: .androidKey(challenge: challenge, chain: wrongKind.map { Data($0) })
            )
            let refused = try await server.api.verifyRegistration(start, key: key, token: token)
            #expect(refused.attestation == KeyAttestationResult(format: "android-key", verdict: .refused, reason: "not_biometric_per_use"))
            #expect(try await server.api.auditEvents(token: token).contains { $0.type == .keyAttestationRefused && $0.outcome == .failure })
            // A format the server does not read is refused, and its text (the client's) is not stored.
            let odd = SoftwareDeviceKey.es256()
            let oddChallenge = try await server.api.attestationChallenge(token: token).challenge.data
            let unknown = KeyAttestationEvidence(format: "tpm-of-my-own", challenge: Base64URLBytes(oddChallenge))
            let oddStart = try await server.api.startRegistration(odd, token: token, keyAttestation: unknown)
            let oddRegistration = try await server.api.verifyRegistration(oddStart, key: odd, token: token)
            #expect(oddRegistration.attestation == KeyAttestationResult(format: nil, verdict: .refused, reason: "evidence_malformed"))
        }
    }

    @Test("under none, evidence is not looked at, registrations carry no verdict, and challenges say so and are not kept")
    func noneIgnores() async throws {
        try await Self.run(.none) { server in
            let token = try await server.api.newAccount().sessionToken
            for _ in 0...KeyAttestationService.liveChallengesPerSession {
                #expect(try await server.api.attestationChallenge(token: token).mode == .none)
            }
            #expect(try await server.snapshot().tables["attestation_challenges"]?.isEmpty == true)
            let key = SoftwareDeviceKey.es256()
            let garbage = KeyAttestationEvidence(format: "android-key", challenge: Base64URLBytes(Data([1, 2, 3])))
            let start = try await server.api.startRegistration(key, token: token, keyAttestation: garbage)
            #expect(try await server.api.verifyRegistration(start, key: key, token: token).attestation == nil)
        }
    }

    @Test("a session holds at most ten unspent attestation challenges; another session's (a stale or a PIN one) do not count")
    func challengeCap() async throws {
        try await Self.run(.require) { server in
            let account = try await server.api.newAccount()
            let stale = try await server.api.signIn(account.user.username).sessionToken
            for _ in 0..<KeyAttestationService.liveChallengesPerSession {
                #expect(try await server.api.attestationChallenge(token: stale).mode == .require)
            }
            try await server.api.expectError(.rateLimited, .post, Endpoint.createAttestationChallenge.path(), token: stale)
            // The owner's session still enrolls.
            let key = SoftwareDeviceKey.es256()
            let evidence = try await Self.androidEvidence(server, key: key, token: account.sessionToken)
            let start = try await server.api.startRegistration(key, token: account.sessionToken, keyAttestation: evidence)
            _ = try await server.api.verifyRegistration(start, key: key, token: account.sessionToken)
        }
    }

    @Test("a refused start spends its attestation challenge: it cannot be tried again, and refusals do not fill the quota")
    func refusedStartSpendsChallenge() async throws {
        try await Self.run(.require) { server in
            let token = try await server.api.newAccount().sessionToken
            let key = SoftwareDeviceKey.es256()
            let challenge = try await server.api.attestationChallenge(token: token).challenge.data
            let first = try await server.api.startRefused(
                .attestationRefused,
                key: key,
                evidence: try Self.androidEvidence(key: key, challenge: challenge, by: try Self.forger()),
                token: token
            )
            #expect(first.error.reason == "chain_untrusted")
            let again = try await server.api.startRefused(
                .attestationRefused,
                key: key,
                evidence: try Self.androidEvidence(key: key, challenge: challenge),
                token: token
            )
            #expect(again.error.reason == "challenge_mismatch")
            #expect(try await server.snapshot().tables["attestation_challenges"]?.isEmpty == true)
        }
    }
}

extension APIClient {
    /// Starts registering `key` with `evidence` and expects contract error `code`; its body.
    @discardableResult
    func startRefused(
        _ code: ErrorCode,
        key: SoftwareDeviceKey,
        evidence: KeyAttestationEvidence?,
        token: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ErrorResponse {
        let body = StartRegistrationRequest(algorithm: key.algorithm, publicKey: key.publicKey(), keyAttestation: evidence)
        let answer = try await expectError(code, .post, Endpoint.startRegistration.path(), json: body, token: token, sourceLocation: sourceLocation)
        return try answer.decode(ErrorResponse.self)
    }

    /// The user's activity (`GET /v1/audit`).
    func auditEvents(token: String) async throws -> [AuditEvent] {
        try await expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: token).events
    }
}
