import BioAuthProtocol
import Foundation
import Testing
import X509

@testable import BioAuthWebAuthn

/// Responses captured from real authenticators (security keys, Windows Hello TPMs, iPhones,
/// Android phones, password managers), as public WebAuthn libraries publish them in their test
/// suites (Fixtures/real-authenticators.json says which, per entry): every attestation format
/// this relying party supports verifies against the roots its source used, at a time inside the
/// certificates' validity, and each published refusal is refused here too.
@Suite("Real authenticators: captured registrations and assertions")
struct RealAuthenticatorTests {
    struct Fixtures: Decodable {
        struct Registration: Decodable {
            struct Expected: Decodable {
                var accepted: Bool
                var credential_id_base64url: String?
                var sign_count: UInt32?
                var algorithm: Int64?
            }
            var name: String, format: String, rp_id: String, origin: String, challenge_base64url: String
            var require_user_verification: Bool, verify_at: String, root_certificates_pem: [String]
            var response: RegistrationResponseJSON
            var expected: Expected
        }
        struct Authentication: Decodable {
            struct Expected: Decodable {
                var accepted: Bool
                var new_sign_count: UInt32?
                var backup_eligible: Bool?
            }
            var name: String, rp_id: String, origin: String, challenge_base64url: String, credential_public_key_base64url: String
            var stored_sign_count: UInt32, require_user_verification: Bool
            var response: AuthenticationResponseJSON
            var expected: Expected
        }
        var registrations: [Registration]
        var authentications: [Authentication]
    }

    static let fixtures: Fixtures = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/real-authenticators.json")
        return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
    }()

    /// Formats this relying party does not verify: SafetyNet is deprecated by Google and not in
    /// the set the server supports; it is refused as unsupported.
    static let unsupportedFormats: Set<String> = ["android-safetynet"]
    /// Refusals that are one library's own policy, not WebAuthn Level 3's: py_webauthn refuses
    /// a token binding status of "supported", which Level 3 removed from client data.
    static let levelThreeAccepts: Set<String> = ["fido-u2f-tokenbinding-not-supported"]

    static func party(_ entry: Fixtures.Registration) throws -> RelyingParty {
        var party = RelyingParty(id: entry.rp_id, name: "Fixture", origins: [entry.origin])
        party.userVerification = entry.require_user_verification ? .required : .preferred
        if !entry.root_certificates_pem.isEmpty {
            party.attestation = .direct(roots: try entry.root_certificates_pem.flatMap { try AttestationPolicy.certificates(pem: $0) })
        }
        return party
    }

    @Test(
        "each captured registration gets the verdict its source expects, with the same credential",
        arguments: fixtures.registrations.map(\.name)
    )
    func registration(_ name: String) async throws {
        let entry = try #require(Self.fixtures.registrations.first { $0.name == name })
        // A negative case's "expected" challenge may be any text, not base64url.
        let challenge = Base64URL.decode(entry.challenge_base64url) ?? Data(entry.challenge_base64url.utf8)
        let now = try Date(entry.verify_at, strategy: .iso8601)
        do {
            let verified = try await Self.party(entry).verifyRegistration(entry.response, challenge: Array(challenge), now: now)
            #expect(entry.expected.accepted || Self.levelThreeAccepts.contains(name), "accepted, but the source refuses it")
            #expect(!Self.unsupportedFormats.contains(entry.format))
            if let id = entry.expected.credential_id_base64url { #expect(Base64URL.encode(verified.credentialID) == id) }
            if let count = entry.expected.sign_count { #expect(verified.signCount == count) }
            if let algorithm = entry.expected.algorithm { #expect(verified.algorithm.rawValue == algorithm) }
            if !entry.root_certificates_pem.isEmpty, entry.format != "packed-self" {
                guard case .certificates = verified.trustPath else {
                    Issue.record("\(name): no certificate chain")
                    return
                }
            }
        } catch {
            if Self.unsupportedFormats.contains(entry.format) {
                #expect((error as? WebAuthnError)?.reason == .unsupportedAttestationFormat)
            } else {
                #expect(!entry.expected.accepted, "refused: \(error)")
            }
        }
    }

    @Test(
        "each captured assertion gets the verdict its source expects, and moves the counter as it says",
        arguments: fixtures.authentications.map(\.name)
    )
    func authentication(_ name: String) throws {
        let entry = try #require(Self.fixtures.authentications.first { $0.name == name })
        var party = RelyingParty(id: entry.rp_id, name: "Fixture", origins: [entry.origin])
        party.userVerification = entry.require_user_verification ? .required : .preferred
        let flags = try AuthenticatorData(Array(entry.response.response.authenticatorData.data)).flags
        let record = CredentialRecord(
            credentialID: Array(entry.response.rawId.data),
            userHandle: Array(entry.response.response.userHandle?.data ?? Data()),
            publicKey: Array(try #require(Base64URL.decode(entry.credential_public_key_base64url))),
            signCount: entry.stored_sign_count,
            backupEligible: entry.expected.backup_eligible ?? flags.contains(.backupEligible)
        )
        let challenge = try #require(Base64URL.decode(entry.challenge_base64url))
        do {
            // Their sources look the credential up for a known user: a username-first sign-in.
            let result = try party.verifyAuthentication(entry.response, challenge: Array(challenge), credential: record, userIdentified: true)
            #expect(entry.expected.accepted, "accepted, but the source refuses it")
            if let count = entry.expected.new_sign_count { #expect(result.signCount == count) }
        } catch {
            #expect(!entry.expected.accepted, "refused: \(error)")
        }
    }
}
