import BioAuthTesting
import Crypto
import Foundation
import Testing
import X509

@testable import BioAuthAttestation

/// App Attest attestations and assertions made by real iPhones (Fixtures/real-app-attest.json
/// names each one's source): seven from development builds on iOS 14.2 to 14.4, and the
/// production sample of Apple's own validation guide. Each verifies against Apple's root at its
/// time; each refusal rule is then shown on them by changing one input.
@Suite("App Attest: real devices' attestations and assertions")
struct RealAppAttestTests {
    struct Manifest: Decodable {
        struct Attestation: Decodable, CustomTestStringConvertible {
            var name: String, source: String, app_id: String, environment: String, key_id_base64: String
            var client_data_hash_base64: String, verify_at: String, object_base64: String, public_key_base64: String
            var testDescription: String { name }
        }
        struct Assertion: Decodable, CustomTestStringConvertible {
            var name: String, source: String, app_id: String, key_id_base64: String, public_key_base64: String
            var client_data_hash_base64: String, previous_counter: UInt32, expected_counter: UInt32, assertion_base64: String
            var testDescription: String { name }
        }
        var attestations: [Attestation]
        var assertions: [Assertion]
    }

    static let manifest: Manifest = try! JSONDecoder().decode(
        Manifest.self,
        from: Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/real-app-attest.json"))
    )

    static func bytes(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }

    /// The verdict on `entry` with one input changed: "accepted" or the refusal's code.
    static func verdict(
        _ entry: Manifest.Attestation,
        appIDs: [String]? = nil,
        environment: String? = nil,
        keyID: [UInt8]? = nil,
        clientDataHash: [UInt8]? = nil,
        at time: Date? = nil,
        roots: [Certificate]? = nil
    ) async -> String {
        let policy = AppAttestPolicy(appIDs: appIDs ?? [entry.app_id], environment: AppAttestEnvironment(rawValue: environment ?? entry.environment)!)
        let verifier = AppAttestVerifier(roots: roots ?? AttestationRoots.appleAppAttest, policy: policy)
        do {
            let key = try await verifier.verifyAttestation(
                bytes(entry.object_base64),
                keyID: keyID ?? bytes(entry.key_id_base64),
                clientDataHash: clientDataHash ?? bytes(entry.client_data_hash_base64),
                now: time ?? (try! Date(entry.verify_at, strategy: .iso8601))
            )
            #expect(key.publicKey == bytes(entry.public_key_base64) && key.appID == entry.app_id && key.counter == 0)
            return "accepted"
        } catch {
            return error.reason.rawValue
        }
    }

    @Test("every real attestation verifies, keeping the key its publisher recorded", arguments: manifest.attestations)
    func attestations(_ entry: Manifest.Attestation) async {
        #expect(await Self.verdict(entry) == "accepted")
    }

    @Test(
        "every real attestation is refused for another app, environment, key id or challenge, after its certificate expired, or under another root",
        arguments: manifest.attestations
    )
    func attestationRefusals(_ entry: Manifest.Attestation) async throws {
        let other = entry.environment == "production" ? "development" : "production"
        let verifyAt = try Date(entry.verify_at, strategy: .iso8601)
        let test = try AppAttestAuthority(validity: verifyAt.addingTimeInterval(-3600)...verifyAt.addingTimeInterval(3600))
        #expect(await Self.verdict(entry, appIDs: ["ABCDE12345.com.example.other"]) == "app_not_allowed")
        #expect(await Self.verdict(entry, environment: other) == "environment")
        #expect(await Self.verdict(entry, keyID: Array(SHA256.hash(data: Data("another key".utf8)))) == "key_mismatch")
        #expect(await Self.verdict(entry, clientDataHash: Array(SHA256.hash(data: Data("another challenge".utf8)))) == "challenge_mismatch")
        #expect(await Self.verdict(entry, at: verifyAt.addingTimeInterval(86_400 * 400)) == "chain_untrusted")
        #expect(await Self.verdict(entry, roots: [test.root]) == "chain_untrusted")
    }

    static func assertionVerdict(
        _ entry: Manifest.Assertion,
        previous: UInt32? = nil,
        appIDs: [String]? = nil,
        clientDataHash: [UInt8]? = nil,
        publicKey: [UInt8]? = nil
    ) -> String {
        let key = AppAttestKey(
            keyID: bytes(entry.key_id_base64),
            publicKey: publicKey ?? bytes(entry.public_key_base64),
            appID: entry.app_id,
            counter: previous ?? entry.previous_counter
        )
        let verifier = AppAttestVerifier(policy: AppAttestPolicy(appIDs: appIDs ?? [entry.app_id], environment: .development))
        do {
            let updated = try verifier.verifyAssertion(
                bytes(entry.assertion_base64),
                clientDataHash: clientDataHash ?? bytes(entry.client_data_hash_base64),
                key: key
            )
            #expect(updated.counter == entry.expected_counter)
            return "accepted"
        } catch {
            return error.reason.rawValue
        }
    }

    @Test(
        "every real assertion verifies and advances the counter; replayed, for another challenge or app, or by another key it is refused",
        arguments: manifest.assertions
    )
    func assertions(_ entry: Manifest.Assertion) {
        #expect(Self.assertionVerdict(entry) == "accepted")
        #expect(Self.assertionVerdict(entry, previous: entry.expected_counter) == "assertion_invalid")
        #expect(Self.assertionVerdict(entry, clientDataHash: Array(SHA256.hash(data: Data("another request".utf8)))) == "assertion_invalid")
        #expect(Self.assertionVerdict(entry, appIDs: ["ABCDE12345.com.example.other"]) == "app_not_allowed")
        let stranger = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        #expect(Self.assertionVerdict(entry, publicKey: stranger) == "assertion_invalid")
    }
}
