import BioAuthTesting
import BioAuthWebAuthn
import Crypto
import Foundation
import Testing

@testable import BioAuthAttestation

/// App Attest's rules on evidence from a test authority in Apple's formats, where the real
/// captures cannot show a rule (a counter that is not zero, a forged nonce, malformed objects, a
/// key used for many assertions).
@Suite("App Attest: the verifier's rules")
struct AppAttestTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let authority = try! AppAttestAuthority(validity: now.addingTimeInterval(-86_400)...now.addingTimeInterval(86_400))
    static let appID = "ABCDE12345.com.example.bank"
    static let verifier = AppAttestVerifier(roots: [authority.root], policy: AppAttestPolicy(appIDs: [appID]))
    static let clientDataHash = Array(SHA256.hash(data: Data("a registration's client data".utf8)))

    static func verdict(_ object: [UInt8], key: P256.Signing.PublicKey) async -> String {
        do {
            _ = try await verifier.verifyAttestation(object, keyID: AppAttestAuthority.keyID(key), clientDataHash: clientDataHash, now: now)
            return "accepted"
        } catch {
            return error.reason.rawValue
        }
    }

    @Test("a genuine attestation is accepted; one whose counter is not zero, or whose certificate carries another nonce, is refused")
    func attestation() async throws {
        let key = P256.Signing.PrivateKey().publicKey
        #expect(
            await Self.verdict(try Self.authority.attestation(of: key, appID: Self.appID, clientDataHash: Self.clientDataHash), key: key)
                == "accepted"
        )
        let counted = try Self.authority.attestation(of: key, appID: Self.appID, clientDataHash: Self.clientDataHash, counter: 1)
        #expect(await Self.verdict(counted, key: key) == "evidence_malformed")
        let forged = try Self.authority.attestation(
            of: key,
            appID: Self.appID,
            clientDataHash: Self.clientDataHash,
            certifiedNonce: Array(repeating: 0, count: 32)
        )
        #expect(await Self.verdict(forged, key: key) == "challenge_mismatch")
        let development = try Self.authority.attestation(of: key, appID: Self.appID, environment: "development", clientDataHash: Self.clientDataHash)
        #expect(await Self.verdict(development, key: key) == "environment")
    }

    @Test("bytes that are not an apple-appattest attestation object are malformed")
    func malformed() async throws {
        let key = P256.Signing.PrivateKey().publicKey
        let genuine = try Self.authority.attestation(of: key, appID: Self.appID, clientDataHash: Self.clientDataHash)
        var packed = try CBORDecoder().decode(genuine)
        guard case .map(var entries) = packed else {
            Issue.record("not a map")
            return
        }
        entries[0].value = .text("packed")
        packed = .map(entries)
        for object in [[], [0xA0], Array(genuine.prefix(genuine.count / 2)), CBOREncoder.encode(packed)] {
            #expect(await Self.verdict(object, key: key) == "evidence_malformed")
        }
    }

    @Test("assertions by an attested key verify while its counter grows; a repeated or lower counter is refused")
    func assertionCounters() throws {
        let privateKey = P256.Signing.PrivateKey()
        var key = AppAttestKey(
            keyID: AppAttestAuthority.keyID(privateKey.publicKey),
            publicKey: Array(privateKey.publicKey.x963Representation),
            appID: Self.appID,
            counter: 0
        )
        for counter: UInt32 in [1, 2, 7] {
            key = try Self.verifier.verifyAssertion(
                try AppAttestAuthority.assertion(by: privateKey, appID: Self.appID, counter: counter, clientDataHash: Self.clientDataHash),
                clientDataHash: Self.clientDataHash,
                key: key
            )
            #expect(key.counter == counter)
        }
        for counter: UInt32 in [7, 3] {
            #expect(throws: AttestationFailure(.assertionInvalid, "counter \(counter) after 7")) {
                try Self.verifier.verifyAssertion(
                    try AppAttestAuthority.assertion(by: privateKey, appID: Self.appID, counter: counter, clientDataHash: Self.clientDataHash),
                    clientDataHash: Self.clientDataHash,
                    key: key
                )
            }
        }
    }

    @Test("Apple's App Attestation Root CA ships with the server")
    func shippedRoot() {
        let root = AttestationRoots.appleAppAttest
        #expect(root.count == 1 && root[0].subject.description.contains("Apple App Attestation Root CA"))
    }
}
