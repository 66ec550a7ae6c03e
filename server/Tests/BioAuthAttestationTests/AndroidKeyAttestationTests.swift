import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import BioAuthAttestation
@testable import BioAuthWebAuthn

/// Every rule of an Android device key's attestation, each shown by a chain from a test CA that
/// breaks that rule alone: the genuine key is accepted, each variation refused for its reason.
@Suite("Android Key Attestation: the verifier's rules")
struct AndroidKeyAttestationTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let app = AndroidAllowedApp(packageName: "com.example.bank", signingCertificateDigest: Array(SHA256.hash(data: Data("release key".utf8))))
    static let ca = try! AndroidAttestationCA(validity: now.addingTimeInterval(-86_400 * 365)...now.addingTimeInterval(86_400 * 365))
    static let challenge = Array("a registration challenge from the server".utf8)

    struct Case: Sendable {
        var kind: RegistrationKind = .biometric
        var policy = AndroidAttestationPolicy(allowedApps: [AndroidKeyAttestationTests.app])
        var roots = [AndroidKeyAttestationTests.ca.root]
        var revocations = AndroidRevocationList()
        var challenge = AndroidKeyAttestationTests.challenge
        var certifiesAnotherKey = false
        var change: @Sendable (inout AndroidKeyDescription) -> Void = { _ in }
        var chain: (@Sendable ([[UInt8]]) -> [[UInt8]])?
    }

    /// The verdict on a key made as `setup` says: "accepted" or the refusal's code.
    static func verdict(_ setup: Case) throws -> String {
        let key = P256.Signing.PrivateKey().publicKey
        var description = AndroidKeyDescription.genuine(setup.kind, challenge: challenge, app: app)
        setup.change(&description)
        let certified = setup.certifiesAnotherKey ? P256.Signing.PrivateKey().publicKey : key
        var chain = try ca.chain(for: Certificate.PublicKey(certified), description: description)
        if let alter = setup.chain { chain = alter(chain) }
        let verifier = AndroidKeyAttestationVerifier(roots: setup.roots, revocations: setup.revocations, policy: setup.policy)
        do {
            _ = try verifier.verify(chain: chain, challenge: setup.challenge, publicKey: Certificate.PublicKey(key), kind: setup.kind, now: now)
            return "accepted"
        } catch {
            return error.reason.rawValue
        }
    }

    @Test("a genuine biometric key and a genuine PIN key of an allowed app are accepted, with what they showed")
    func genuine() throws {
        for kind in RegistrationKind.allCases {
            #expect(try Self.verdict(Case(kind: kind)) == "accepted", "\(kind)")
        }
        let key = P256.Signing.PrivateKey().publicKey
        let chain = try Self.ca.chain(for: .init(key), description: .genuine(.biometric, challenge: Self.challenge, app: Self.app))
        let verdict = try AndroidKeyAttestationVerifier(roots: [Self.ca.root], policy: .init(allowedApps: [Self.app]))
            .verify(chain: chain, challenge: Self.challenge, publicKey: .init(key), kind: .biometric, now: Self.now)
        #expect(verdict.securityLevel == .trustedEnvironment && verdict.attestationVersion == 300 && verdict.packageName == "com.example.bank")
        #expect(verdict.rootOfTrust.deviceLocked && verdict.rootOfTrust.verifiedBootState == .verified && verdict.osPatchLevel == 202610)
    }

    @Test("a chain that does not lead to a configured root by names and signatures is refused")
    func untrustedChain() throws {
        let other = try AndroidAttestationCA(validity: Self.now.addingTimeInterval(-86_400)...Self.now.addingTimeInterval(86_400))
        #expect(try Self.verdict(Case(roots: [other.root])) == "chain_untrusted")
        #expect(try Self.verdict(Case(roots: AttestationRoots.googleHardware)) == "chain_untrusted")
        let otherChain = try other.chain(for: .init(P256.Signing.PrivateKey().publicKey), description: .genuine(.pin, challenge: [], app: Self.app))
        // This CA's leaf under another CA's intermediate and root; under another intermediate of
        // the same name; a chain that does not end in a self-issued certificate.
        #expect(try Self.verdict(Case(chain: { [$0[0]] + otherChain.dropFirst() })) == "chain_untrusted")
        #expect(try Self.verdict(Case(roots: [Self.ca.root, other.root], chain: { [$0[0], otherChain[1], otherChain[2]] })) == "chain_untrusted")
        #expect(try Self.verdict(Case(chain: { [$0[0], $0[1], $0[1]] })) == "chain_untrusted")
    }

    @Test("an intermediate outside its validity is refused, except an expired one of a factory-provisioned chain, as Google's verifier does")
    func validity() throws {
        for factory in [false, true] {
            let past = try AndroidAttestationCA(
                validity: Self.now.addingTimeInterval(-86_400 * 30)...Self.now.addingTimeInterval(-86_400),
                factoryProvisioned: factory
            )
            let future = try AndroidAttestationCA(
                validity: Self.now.addingTimeInterval(86_400)...Self.now.addingTimeInterval(86_400 * 30),
                factoryProvisioned: factory
            )
            for (ca, expected) in [(past, factory ? "accepted" : "chain_untrusted"), (future, "chain_untrusted")] {
                let key = P256.Signing.PrivateKey().publicKey
                let chain = try ca.chain(for: .init(key), description: .genuine(.biometric, challenge: Self.challenge, app: Self.app))
                let verifier = AndroidKeyAttestationVerifier(roots: [ca.root], policy: .init(allowedApps: [Self.app]))
                var outcome = "accepted"
                do { _ = try verifier.verify(chain: chain, challenge: Self.challenge, publicKey: .init(key), kind: .biometric, now: Self.now) } catch
                {
                    outcome = error.reason.rawValue
                }
                #expect(outcome == expected, "factory \(factory), valid from \(ca.intermediate.notValidBefore)")
            }
        }
    }

    @Test("an attested key that signs a certificate of its own, with a key description for a software key, does not pass it off as the leaf")
    func chainExtension() throws {
        let attested = P256.Signing.PrivateKey()
        let chain = try Self.ca.chain(for: .init(attested.publicKey), description: .genuine(.biometric, challenge: Self.challenge, app: Self.app))
        let software = P256.Signing.PrivateKey().publicKey
        let forged = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(software),
            notValidBefore: Self.now.addingTimeInterval(-60),
            notValidAfter: Self.now.addingTimeInterval(3600),
            issuer: try Certificate(derEncoded: chain[0]).subject,
            subject: try DistinguishedName { CommonName("Android Keystore Key") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Certificate.Extension(
                    oid: AndroidKeyDescription.extensionID,
                    critical: false,
                    value: ArraySlice(try AndroidKeyDescription.genuine(.biometric, challenge: Self.challenge, app: Self.app).derEncoded())
                )
            },
            issuerPrivateKey: .init(attested)
        )
        var coder = DER.Serializer()
        try coder.serialize(forged)
        let verifier = AndroidKeyAttestationVerifier(roots: [Self.ca.root], policy: .init(allowedApps: [Self.app]))
        do {
            _ = try verifier.verify(
                chain: [coder.serializedBytes] + chain,
                challenge: Self.challenge,
                publicKey: .init(software),
                kind: .biometric,
                now: Self.now
            )
            Issue.record("the forged leaf was accepted")
        } catch {
            #expect(error.reason == .untrustedChain && error.detail.contains("extended"), "\(error)")
        }
    }

    @Test("a revoked leaf or intermediate is refused")
    func revoked() throws {
        let intermediate = AndroidRevocationList.key(Self.ca.intermediate.serialNumber)
        #expect(try Self.verdict(Case(revocations: .init(serials: [intermediate]))) == "certificate_revoked")
        #expect(try Self.verdict(Case(revocations: .init(serials: ["1"]))) == "accepted")
    }

    @Test("evidence that is not a chain of certificates with a key description is malformed")
    func malformed() throws {
        #expect(try Self.verdict(Case(chain: { _ in [] })) == "evidence_malformed")
        #expect(try Self.verdict(Case(chain: { _ in [[0x30, 0x03, 0x02, 0x01, 0x01]] })) == "evidence_malformed")
        #expect(try Self.verdict(Case(chain: { Array(repeating: $0[1], count: 5) + [$0[2]] })) == "evidence_malformed")
        #expect(try Self.verdict(Case(chain: { [$0[0]] })) == "evidence_malformed")
        // A chain whose leaf is the CA's intermediate: it chains, but has no key description.
        #expect(try Self.verdict(Case(chain: { [$0[1], $0[2], $0[2]] })) == "evidence_malformed")

        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.rootOfTrust = nil })) == "evidence_malformed")
    }

    @Test("a key made for another challenge, or a chain certifying another key, is refused")
    func bindings() throws {
        #expect(try Self.verdict(Case(challenge: Array("another registration".utf8))) == "challenge_mismatch")
        #expect(try Self.verdict(Case(certifiesAnotherKey: true)) == "key_mismatch")
    }

    @Test("a key outside secure hardware is refused, and a TEE key where the operator requires StrongBox")
    func securityLevel() throws {
        #expect(
            try Self.verdict(
                Case(change: {
                    $0.keyMintSecurityLevel = .software
                    $0.attestationSecurityLevel = .software
                })
            ) == "not_secure_hardware"
        )
        #expect(try Self.verdict(Case(change: { $0.attestationSecurityLevel = .software })) == "not_secure_hardware")
        var strongBox = AndroidAttestationPolicy(allowedApps: [Self.app], requireStrongBox: true)
        #expect(try Self.verdict(Case(policy: strongBox)) == "strongbox_required")
        let inStrongBox: @Sendable (inout AndroidKeyDescription) -> Void = {
            $0.keyMintSecurityLevel = .strongBox
            $0.attestationSecurityLevel = .strongBox
        }
        #expect(try Self.verdict(Case(policy: strongBox, change: inStrongBox)) == "accepted")
        strongBox.requireStrongBox = false
        #expect(try Self.verdict(Case(policy: strongBox, change: inStrongBox)) == "accepted")
    }

    @Test("an imported key, one not limited to signing, one not EC, or one any app may use is refused")
    func keyProperties() throws {
        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.origin = 2 })) == "key_properties")
        #expect(
            try Self.verdict(
                Case(change: {
                    $0.hardwareEnforced.origin = nil
                    $0.softwareEnforced.origin = 0
                })
            ) == "key_properties"
        )
        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.purposes = [3] })) == "key_properties")
        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.algorithm = 1 })) == "key_properties")
        #expect(try Self.verdict(Case(change: { $0.softwareEnforced.allApplications = true })) == "all_applications")
        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.allApplications = true })) == "all_applications")
    }

    @Test("a biometric key is refused unless the hardware requires a strong biometric, and only that, for every use")
    func biometricPerUse() throws {
        let refusals: [@Sendable (inout AndroidKeyDescription) -> Void] = [
            { $0.hardwareEnforced.userAuthType = 3 },  // biometric or the device credential
            { $0.hardwareEnforced.userAuthType = 1 },  // the device credential
            {
                $0.hardwareEnforced.userAuthType = nil
                $0.softwareEnforced.userAuthType = 2
            },  // not the hardware's rule
            { $0.hardwareEnforced.authTimeout = 30 },  // a validity window
            { $0.softwareEnforced.authTimeout = 30 },
            { $0.hardwareEnforced.noAuthRequired = true },
            { $0.softwareEnforced.noAuthRequired = true },
        ]
        for change in refusals { #expect(try Self.verdict(Case(change: change)) == "not_biometric_per_use") }
        #expect(try Self.verdict(Case(change: { $0.hardwareEnforced.authTimeout = 0 })) == "accepted")
    }

    @Test("a PIN key is refused unless it works only while the device is unlocked (in either list)")
    func pinUnlockedDevice() throws {
        #expect(try Self.verdict(Case(kind: .pin, change: { $0.softwareEnforced.unlockedDeviceRequired = false })) == "usable_while_locked")
        let inHardware: @Sendable (inout AndroidKeyDescription) -> Void = {
            $0.softwareEnforced.unlockedDeviceRequired = false
            $0.hardwareEnforced.unlockedDeviceRequired = true
        }
        #expect(try Self.verdict(Case(kind: .pin, change: inHardware)) == "accepted")
    }

    @Test("a PIN key without the unlocked-device rule is accepted only when attested on Android 12 to 14, where BioAuthKit makes it so")
    func pinUnlockedDeviceByOSVersion() throws {
        func pin(hardware: Int?, software: Int? = nil) throws -> String {
            try Self.verdict(
                Case(kind: .pin) {
                    $0.softwareEnforced.unlockedDeviceRequired = false
                    $0.hardwareEnforced.osVersion = hardware
                    $0.softwareEnforced.osVersion = software
                }
            )
        }
        for version in [120_000, 120_100, 130_000, 140_000, 149_999] { #expect(try pin(hardware: version) == "accepted", "\(version)") }
        #expect(try pin(hardware: nil, software: 140_000) == "accepted")
        for version in [110_000, 119_999, 150_000, 160_000, 0] { #expect(try pin(hardware: version) == "usable_while_locked", "\(version)") }
        #expect(try pin(hardware: nil) == "usable_while_locked", "no OS version: the rule is required")
        // With the rule, every version is accepted.
        #expect(try Self.verdict(Case(kind: .pin) { $0.hardwareEnforced.osVersion = 160_000 }) == "accepted")
    }

    @Test("a BER BOOLEAN is read only inside the key description: the same byte in a certificate's basic constraints leaves it malformed")
    func berBooleanOnlyInTheKeyDescription() throws {
        // The intermediate's basicConstraints cA TRUE (01 01 FF) written BER-style (01 01 01).
        let berIntermediate: @Sendable ([[UInt8]]) -> [[UInt8]] = { chain in
            var intermediate = chain[1]
            let index = intermediate.indices.dropLast(2).first { intermediate[$0...].starts(with: [0x01, 0x01, 0xFF]) }!
            intermediate[index + 2] = 0x01
            return [chain[0], intermediate, chain[2]]
        }
        #expect(try Self.verdict(Case(chain: berIntermediate)) == "evidence_malformed")
        let node = try DER.parse([0x01, 0x01, 0x01])
        #expect(try AndroidRootOfTrust.boolean(node) == true)
        #expect(try AndroidRootOfTrust.boolean(try DER.parse([0x01, 0x01, 0x00])) == false)
        #expect(throws: (any Error).self) { try AndroidRootOfTrust.boolean(try DER.parse([0x01, 0x02, 0x00, 0x01])) }
        #expect(throws: (any Error).self) { try AndroidRootOfTrust.boolean(try DER.parse([0x02, 0x01, 0x01])) }
    }

    @Test("boot state follows the operator's policy: verified, self-signed or any")
    func bootPolicy() throws {
        func boot(_ locked: Bool, _ state: AndroidRootOfTrust.BootState) -> @Sendable (inout AndroidKeyDescription) -> Void {
            { $0.hardwareEnforced.rootOfTrust = AndroidRootOfTrust(verifiedBootKey: [], deviceLocked: locked, verifiedBootState: state) }
        }
        let expectations: [(AndroidAttestationPolicy.BootPolicy, Bool, AndroidRootOfTrust.BootState, String)] = [
            (.verified, true, .verified, "accepted"), (.verified, false, .verified, "boot_state"), (.verified, true, .selfSigned, "boot_state"),
            (.selfSigned, true, .selfSigned, "accepted"), (.selfSigned, false, .selfSigned, "boot_state"),
            (.selfSigned, true, .unverified, "boot_state"),
            (.any, false, .unverified, "accepted"), (.any, false, .failed, "accepted"),
        ]
        for (policy, locked, state, expected) in expectations {
            let setup = Case(policy: AndroidAttestationPolicy(allowedApps: [Self.app], boot: policy), change: boot(locked, state))
            #expect(try Self.verdict(setup) == expected, "\(policy) \(locked) \(state)")
        }
    }

    @Test("only an allowed package signed with its listed certificate may register a key")
    func allowedApps() throws {
        let otherKey = AndroidAllowedApp(packageName: Self.app.packageName, signingCertificateDigest: Array(repeating: 7, count: 32))
        let otherPackage = AndroidAllowedApp(packageName: "com.example.other", signingCertificateDigest: Self.app.signingCertificateDigest)
        #expect(try Self.verdict(Case(policy: .init(allowedApps: [otherKey, otherPackage]))) == "app_not_allowed")
        #expect(try Self.verdict(Case(policy: .init(allowedApps: []))) == "app_not_allowed")
        #expect(try Self.verdict(Case(change: { $0.softwareEnforced.attestationApplicationID = nil })) == "app_not_allowed")
        // Apps sharing a user id are listed together; the allowed one among them suffices.
        let shared: @Sendable (inout AndroidKeyDescription) -> Void = {
            $0.softwareEnforced.attestationApplicationID?.packageNames.insert("com.example.sibling", at: 0)
        }
        #expect(try Self.verdict(Case(change: shared)) == "accepted")
    }

    @Test("an allowed app is written package:digest, colons between hex pairs allowed; anything else is not one")
    func allowedAppText() {
        let hex = Self.app.signingCertificateDigest.map { String(format: "%02X", $0) }
        #expect(AndroidAllowedApp("com.example.bank:" + hex.joined()) == Self.app)
        #expect(AndroidAllowedApp("com.example.bank:" + hex.joined(separator: ":")) == Self.app)
        #expect(AndroidAllowedApp(Self.app.description) == Self.app)
        for bad in [
            "com.example.bank", "com.example.bank:abcd", ":" + hex.joined(), "com example:" + hex.joined(), "com.example.bank:" + hex.joined() + "00",
        ] {
            #expect(AndroidAllowedApp(bad) == nil, "\(bad)")
        }
    }

    @Test("the key description's DER round-trips, and an authorization list out of tag order or with a repeated tag is malformed")
    func strictDER() throws {
        let description = AndroidKeyDescription.genuine(.pin, challenge: Self.challenge, app: Self.app)
        let der = try description.derEncoded()
        var reparsed = try AndroidKeyDescription(derEncoded: ArraySlice(der))
        #expect(reparsed == description)
        reparsed.hardwareEnforced.osPatchLevel = nil
        #expect(reparsed != description)
        // purpose [1] then algorithm [2]: swap the first two entries of the hardware list.
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            for tag: UInt in [2, 1] {
                try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: tag, tagClass: .contextSpecific)) { try $0.serialize(3) }
            }
        }
        let swapped = try DER.parse(coder.serializedBytes)
        #expect(throws: (any Error).self) { try AndroidAuthorizationList(swapped) }
        var repeated = DER.Serializer()
        try repeated.appendConstructedNode(identifier: .sequence) { coder in
            for _ in 0..<2 {
                try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)) { try $0.serialize(256) }
            }
        }
        #expect(throws: (any Error).self) { try AndroidAuthorizationList(try DER.parse(repeated.serializedBytes)) }
    }

    @Test("Google's status list is read as the service publishes it; a file of another shape is an error")
    func statusList() throws {
        let sample =
            #"{"entries": {"6681152659205225093": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}, "cc66e9a93713b6e643b26c15879786f7": {"status": "SUSPENDED", "reason": "KEY_COMPROMISE", "comment": "Entry for testing only", "expires": "2020-11-10"}}}"#
        #expect(try AndroidRevocationList(json: Data(sample.utf8)).serials == ["6681152659205225093", "cc66e9a93713b6e643b26c15879786f7"])
        #expect(throws: (any Error).self) { try AndroidRevocationList(json: Data(#"["6681152659205225093"]"#.utf8)) }
        #expect(AndroidRevocationList.key(Certificate.SerialNumber(bytes: [0x00, 0x0A, 0xBC])) == "abc")
    }

    @Test("Google's two hardware attestation roots ship with the server")
    func shippedRoots() {
        let fingerprints = AttestationRoots.googleHardware.map { root in
            var coder = DER.Serializer()
            try! coder.serialize(root)
            return SHA256.hash(data: coder.serializedBytes).map { String(format: "%02X", $0) }.joined()
        }
        #expect(
            fingerprints == [
                "CEDB1CB6DC896AE5EC797348BCE9286753C2B38EE71CE0FBE34A9A1248800DFC",
                "6D9DB4CE6C5C0B293166D08986E05774A8776CEB525D9E4329520DE12BA4BCC0",
            ]
        )
    }
}
