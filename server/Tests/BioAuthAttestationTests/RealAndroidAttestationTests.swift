import BioAuthProtocol
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import BioAuthAttestation
@testable import BioAuthWebAuthn

/// Chains captured from real Android devices (Fixtures/real-android-attestations.json names each
/// one's source): the parser reads what the upstream project decoded, each chain verifies to
/// Google's roots at the time the key was made, and each is refused for the reason the manifest
/// derives from the upstream decoding. None is a per-use biometric or unlocked-device key of an
/// allowed app; the EC signing keys made on Android 13 and 14 are accepted as PIN keys, which need
/// no unlocked-device rule there. The test CA's chains show every acceptance (AndroidKeyAttestationTests).
@Suite("Android Key Attestation: real devices' chains")
struct RealAndroidAttestationTests {
    struct Manifest: Decodable {
        struct Entry: Decodable, CustomTestStringConvertible {
            struct Description: Decodable {
                var attestation_version: Int, security_level: String, creation_date_time: Int64
                var packages: [String], signature_digests_base64: [String], purposes: [Int], algorithm: Int
                var user_auth_type: Int?, auth_timeout: Int?, no_auth_required: Bool, os_patch_level: Int?
                var device_locked: Bool?, verified_boot_state: String?
            }
            var name: String, file: String, source: String, verify_at: String
            var challenge_base64: String?
            var description: Description?
            var expected: [String: String]
            var testDescription: String { name }
        }
        var entries: [Entry]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let manifest: Manifest = try! JSONDecoder().decode(
        Manifest.self,
        from: Data(contentsOf: fixtures.appendingPathComponent("real-android-attestations.json"))
    )

    /// The chain's DER, leaf first, as the file holds it (some certificates hold keys the
    /// server does not read, so they are not parsed here).
    static func chain(_ entry: Manifest.Entry) throws -> [[UInt8]] {
        try PEMDocument.parseMultiple(pemString: String(contentsOf: fixtures.appendingPathComponent(entry.file), encoding: .utf8)).map(\.derBytes)
    }

    /// The key description extension's value, read from the leaf's DER by walking its
    /// structure (the leaf of an ML-DSA key is not a certificate swift-certificates reads).
    static func keyDescriptionExtension(_ leaf: [UInt8]) throws -> ArraySlice<UInt8> {
        func children(_ node: ASN1Node) -> [ASN1Node] {
            guard case .constructed(let nodes) = node.content else { return [] }
            return Array(nodes)
        }
        let tbs = children(try DER.parse(leaf))[0]
        let extensions = children(tbs).first { $0.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) }
        for ext in children(children(try #require(extensions))[0]) {
            let fields = children(ext)
            if try ASN1ObjectIdentifier(derEncoded: fields[0]) == AndroidKeyDescription.extensionID {
                return try ASN1OctetString(derEncoded: fields[fields.count - 1]).bytes
            }
        }
        throw AndroidKeyDescriptionError("no key description")
    }

    static func date(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// The capture's own app allowed, any boot state: every check but the key's use passes.
    static func verifier(for entry: Manifest.Entry, revocations: AndroidRevocationList = .init()) -> AndroidKeyAttestationVerifier {
        var apps: [AndroidAllowedApp] = []
        if let description = entry.description, let name = description.packages.first, let digest = description.signature_digests_base64.first {
            apps = [AndroidAllowedApp(packageName: name, signingCertificateDigest: Array(Data(base64Encoded: digest)!))]
        }
        return AndroidKeyAttestationVerifier(revocations: revocations, policy: AndroidAttestationPolicy(allowedApps: apps, boot: .any))
    }

    static func verdict(
        _ entry: Manifest.Entry,
        kind: RegistrationKind,
        at time: Date? = nil,
        revocations: AndroidRevocationList = .init()
    ) throws -> String {
        let der = try chain(entry)
        let challenge = entry.challenge_base64.map { Array(Data(base64Encoded: $0)!) } ?? []
        do {
            _ = try verifier(for: entry, revocations: revocations).verify(
                chain: der,
                challenge: challenge,
                publicKey: (try? Certificate(derEncoded: der[0]))?.publicKey ?? Certificate.PublicKey(P256.Signing.PrivateKey().publicKey),
                kind: kind,
                now: time ?? date(entry.verify_at)
            )
            return "accepted"
        } catch {
            return error.reason.rawValue
        }
    }

    @Test("each real chain gets the verdict its decoding predicts, as a PIN key and as a biometric key", arguments: manifest.entries)
    func verdicts(_ entry: Manifest.Entry) throws {
        for kind in RegistrationKind.allCases {
            let verdict = try Self.verdict(entry, kind: kind)
            #expect(verdict == entry.expected[kind.rawValue], "\(kind)")
        }
    }

    @Test("the key description parser reads what android/keyattestation decoded", arguments: manifest.entries.filter { $0.description != nil })
    func parsesLikeUpstream(_ entry: Manifest.Entry) throws {
        let expected = try #require(entry.description)
        let description = try AndroidKeyDescription(derEncoded: try Self.keyDescriptionExtension(try Self.chain(entry)[0]))
        let levels: [String: AndroidKeyDescription.SecurityLevel] = [
            "SOFTWARE": .software, "TRUSTED_ENVIRONMENT": .trustedEnvironment, "STRONG_BOX": .strongBox,
        ]
        #expect(description.attestationVersion == expected.attestation_version)
        #expect(description.keyMintSecurityLevel == levels[expected.security_level])
        #expect(description.challenge == Array(Data(base64Encoded: try #require(entry.challenge_base64))!))
        #expect(description.softwareEnforced.creationDateTime == expected.creation_date_time)
        let application = description.softwareEnforced.attestationApplicationID
        #expect((application?.packageNames ?? []) == expected.packages)
        #expect((application?.signatureDigests ?? []) == expected.signature_digests_base64.map { Array(Data(base64Encoded: $0)!) })
        let hardware = description.hardwareEnforced
        #expect(hardware.purposes.map { $0.sorted() } == expected.purposes)
        #expect(hardware.algorithm == expected.algorithm)
        #expect(hardware.userAuthType == expected.user_auth_type)
        #expect(hardware.authTimeout == expected.auth_timeout)
        #expect(hardware.noAuthRequired == expected.no_auth_required)
        #expect(hardware.osPatchLevel == expected.os_patch_level)
        #expect(hardware.rootOfTrust?.deviceLocked == expected.device_locked)
        let states: [String: AndroidRootOfTrust.BootState] = [
            "VERIFIED": .verified, "SELF_SIGNED": .selfSigned, "UNVERIFIED": .unverified, "FAILED": .failed,
        ]
        #expect(hardware.rootOfTrust?.verifiedBootState == expected.verified_boot_state.flatMap { states[$0] })
    }

    static func entry(_ name: String) -> Manifest.Entry { manifest.entries.first { $0.name == name }! }

    @Test("a chain ending in the 2016 certificate of Google's root key verifies after that certificate expired: the anchor is the key")
    func anchoredOnTheKey() throws {
        let blueline = Self.entry("blueline/sdk28/TEE_EC_NONE")
        let root = try Certificate(derEncoded: try Self.chain(blueline).last!)
        #expect(root.notValidAfter < Self.date(blueline.verify_at), "the fixture's premise: its own root certificate has expired")
        #expect(try Self.verdict(blueline, kind: .pin) == "usable_while_locked")
    }

    @Test("a factory-provisioned chain whose intermediates expired before the key was made still verifies (those keys are revoked, not rotated)")
    func expiredFactoryChain() throws {
        let sony = Self.entry("sony-xperia10-iii/sdk33/TEE_EC")
        let intermediate = try Certificate(derEncoded: try Self.chain(sony)[1])
        #expect(intermediate.notValidAfter < Self.date(sony.verify_at), "the fixture's premise: its intermediates have expired")
        #expect(try Self.verdict(sony, kind: .biometric) == "not_biometric_per_use")
    }

    @Test(
        "a real chain whose root of trust writes deviceLocked as BER (0x01) is read as Google's verifier reads it: locked, refused only for its key"
    )
    func berBooleanDeviceLocked() throws {
        let entry = Self.entry("invalid/malformed_rot_device_locked")
        let description = try AndroidKeyDescription(derEncoded: try Self.keyDescriptionExtension(try Self.chain(entry)[0]))
        #expect(description.hardwareEnforced.rootOfTrust?.deviceLocked == true)
        #expect(try Self.verdict(entry, kind: .pin) == "usable_while_locked")
        #expect(try Self.verdict(entry, kind: .biometric) == "not_biometric_per_use")
    }

    static func failure(
        _ entry: Manifest.Entry,
        roots: [Certificate] = AttestationRoots.googleHardware,
        revocations: AndroidRevocationList = .init()
    ) throws -> AttestationFailure? {
        let der = try chain(entry)
        let challenge = Array(Data(base64Encoded: try #require(entry.challenge_base64))!)
        do {
            _ = try AndroidKeyAttestationVerifier(roots: roots, revocations: revocations, policy: verifier(for: entry).policy).verify(
                chain: der,
                challenge: challenge,
                publicKey: Certificate.PublicKey(P256.Signing.PrivateKey().publicKey),
                kind: .pin,
                now: date(entry.verify_at)
            )
            return nil
        } catch {
            return error
        }
    }

    @Test("a real chain whose leaf holds an ML-DSA key is refused for its key type after its chain verified, naming the key")
    func mlDSALeaf() throws {
        for name in ["tokay/sdk37/TEE_MLDSA_FACTORY", "tokay/sdk37/TEE_MLDSA_RKP"] {
            let entry = Self.entry(name)
            let failure = try #require(try Self.failure(entry))
            #expect(failure.reason == .unsupportedKeyType && failure.detail.contains("ML-DSA-65"), "\(failure)")
            // The chain is checked first: under another root, or with the leaf revoked, that is the reason.
            #expect(try Self.failure(entry, roots: [])?.reason == .untrustedChain)
            let leaf = try #require(AndroidUnreadableLeaf(derEncoded: try Self.chain(entry)[0]))
            let revoked = AndroidRevocationList(serials: [AndroidRevocationList.key(leaf.serialNumber)])
            #expect(try Self.failure(entry, revocations: revoked)?.reason == .revoked)
        }
    }

    @Test("a chain whose CAs hold keys the server cannot read (RSA-1024 software attestation) is untrusted, naming the key")
    func unreadableCAKey() throws {
        let failure = try #require(try Self.failure(Self.entry("marlin/sdk29/TEE_RSA_NONE")))
        #expect(failure.reason == .untrustedChain && failure.detail.contains("RSA (1024 bits)"), "\(failure)")
    }

    @Test("a Remote Key Provisioning chain is refused once its short-lived intermediates expired, and before they began")
    func expiredIntermediates() throws {
        let caiman = Self.entry("caiman/sdk36/TEE_EC_RKP")
        #expect(try Self.verdict(caiman, kind: .pin, at: Self.date("2025-12-01T00:00:00Z")) == "chain_untrusted")
        #expect(try Self.verdict(caiman, kind: .pin, at: Self.date("2025-09-01T00:00:00Z")) == "chain_untrusted")
    }

    @Test("a listed serial anywhere in a real chain (leaf, intermediate or root) refuses it, in the status list's lowercase hex")
    func revokedSerials() throws {
        let tegu = Self.entry("tegu/sdk36/TEE_EC_2026_ROOT")
        for certificate in try Self.chain(tegu).map(Certificate.init(derEncoded:)) {
            let serial = AndroidRevocationList.key(certificate.serialNumber)
            #expect(serial == serial.lowercased() && !serial.hasPrefix("0"))
            let list = try AndroidRevocationList(
                json: Data(#"{"entries": {"\#(serial.uppercased())": {"status": "SUSPENDED", "reason": "KEY_COMPROMISE"}}}"#.utf8)
            )
            #expect(try Self.verdict(tegu, kind: .pin, revocations: list) == "certificate_revoked", "\(certificate.subject)")
        }
    }
}
