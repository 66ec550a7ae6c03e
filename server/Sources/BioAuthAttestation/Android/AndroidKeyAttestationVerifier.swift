import BioAuthProtocol
import BioAuthWebAuthn
import Foundation
import SwiftASN1
import X509

/// Verifies an Android Keystore attestation of a device key (source.android.com/docs/security/
/// features/keystore/attestation, "Verify hardware-backed key pairs with key attestation" on
/// developer.android.com): the certificate chain the app read with `KeyStore.getCertificateChain`
/// after generating the key with `setAttestationChallenge(challenge)`.
package struct AndroidKeyAttestationVerifier: Sendable {
    /// The trust anchors: Google's, and any the operator adds.
    package var roots: [Certificate]
    /// Certificates refused though they chain.
    package var revocations: AndroidRevocationList
    /// What the operator accepts.
    package var policy: AndroidAttestationPolicy

    /// A verifier over `roots` (Google's by default).
    package init(
        roots: [Certificate] = AttestationRoots.googleHardware,
        revocations: AndroidRevocationList = .init(),
        policy: AndroidAttestationPolicy
    ) {
        self.roots = roots
        self.revocations = revocations
        self.policy = policy
    }

    /// Verifies `chain` (DER, leaf first) for a `kind` key whose public key is `publicKey`,
    /// generated with `challenge`, at `now`; returns what it showed or the first reason to refuse.
    package func verify(
        chain: [[UInt8]],
        challenge: [UInt8],
        publicKey: Certificate.PublicKey,
        kind: RegistrationKind,
        now: Date
    ) throws(AttestationFailure) -> AndroidKeyVerdict {
        let (chainLeaf, above) = try Self.certificates(chain)
        switch chainLeaf {
        case .readable(let leaf): try AndroidAttestationPath.check([leaf] + above, roots: roots, now: now)
        case .unreadable(let leaf): try AndroidAttestationPath.check(leaf, above: above, roots: roots, now: now)
        }
        let serials = [(chainLeaf.serialNumber, "the leaf")] + above.map { ($0.serialNumber, "\($0.subject)") }
        if let (serial, name) = serials.first(where: { revocations.lists($0.0) }) {
            throw AttestationFailure(.revoked, "serial \(AndroidRevocationList.key(serial)) (\(name))")
        }
        let leaf: Certificate
        switch chainLeaf {
        case .readable(let certificate): leaf = certificate
        // The chain is sound: the refusal is for the key's type.
        case .unreadable(let unreadable): throw AttestationFailure(.unsupportedKeyType, "the leaf certifies an \(unreadable.keyType) key")
        }
        let description = try Self.keyDescription(leaf)
        guard description.challenge == challenge else { throw AttestationFailure(.challengeMismatch) }
        guard leaf.publicKey == publicKey else { throw AttestationFailure(.keyMismatch, "the leaf certifies another key") }
        try checkSecurityLevel(description)
        try Self.checkKeyProperties(description)
        try Self.checkUse(description, kind: kind)
        let rootOfTrust = try checkBoot(description.hardwareEnforced.rootOfTrust)
        let packageName = try checkApp(description.softwareEnforced.attestationApplicationID)
        return AndroidKeyVerdict(
            securityLevel: description.keyMintSecurityLevel,
            attestationVersion: description.attestationVersion,
            rootOfTrust: rootOfTrust,
            packageName: packageName,
            osPatchLevel: description.hardwareEnforced.osPatchLevel
        )
    }

    /// A chain's leaf: a certificate, or one swift-certificates cannot read for its key alone.
    private enum Leaf {
        case readable(Certificate)
        case unreadable(AndroidUnreadableLeaf)

        var serialNumber: Certificate.SerialNumber {
            switch self {
            case .readable(let certificate): certificate.serialNumber
            case .unreadable(let leaf): leaf.serialNumber
            }
        }
    }

    /// The leaf and the certificates above it, root last. A certificate above the leaf whose key
    /// cannot be read cannot vouch for anything: the chain is untrusted, naming the key.
    private static func certificates(_ chain: [[UInt8]]) throws(AttestationFailure) -> (Leaf, [Certificate]) {
        guard AndroidAttestationPath.lengths.contains(chain.count) else {
            throw AttestationFailure(.malformed, "a chain of \(chain.count) certificates")
        }
        var leaf: Leaf?
        var above: [Certificate] = []
        for (index, der) in chain.enumerated() {
            do {
                let certificate = try Certificate(derEncoded: der)
                if index == 0 { leaf = .readable(certificate) } else { above.append(certificate) }
            } catch {
                guard let unreadable = AndroidUnreadableLeaf(derEncoded: der) else {
                    throw AttestationFailure(.malformed, "certificate \(index) is not DER X.509")
                }
                guard index == 0 else {
                    throw AttestationFailure(
                        .untrustedChain,
                        "certificate \(index) holds an \(unreadable.keyType) key, which this server cannot read"
                    )
                }
                leaf = .unreadable(unreadable)
            }
        }
        guard let leaf else { throw AttestationFailure(.malformed, "no leaf") }
        return (leaf, above)
    }

    private static func keyDescription(_ leaf: Certificate) throws(AttestationFailure) -> AndroidKeyDescription {
        guard let ext = leaf.extensions[oid: AndroidKeyDescription.extensionID] else {
            throw AttestationFailure(.malformed, "the leaf has no key description")
        }
        do { return try AndroidKeyDescription(derEncoded: ext.value) } catch {
            throw AttestationFailure(.malformed, "the key description: \(error)")
        }
    }

    private func checkSecurityLevel(_ description: AndroidKeyDescription) throws(AttestationFailure) {
        let level = description.keyMintSecurityLevel
        guard level != .software, description.attestationSecurityLevel == level else {
            throw AttestationFailure(.notSecureHardware, "key \(level), attestation \(description.attestationSecurityLevel)")
        }
        if policy.requireStrongBox && level != .strongBox { throw AttestationFailure(.strongBoxRequired) }
    }

    /// Only the hardware's own list counts for what the hardware did.
    private static func checkKeyProperties(_ description: AndroidKeyDescription) throws(AttestationFailure) {
        let hardware = description.hardwareEnforced
        guard hardware.origin == AndroidAuthorizationList.originGenerated else {
            throw AttestationFailure(.wrongKey, "origin \(hardware.origin.map(String.init) ?? "absent")")
        }
        guard hardware.purposes?.contains(AndroidAuthorizationList.purposeSign) == true,
            hardware.algorithm == AndroidAuthorizationList.algorithmEC
        else { throw AttestationFailure(.wrongKey, "not an EC signing key") }
        guard !hardware.allApplications && !description.softwareEnforced.allApplications else {
            throw AttestationFailure(.allApplications)
        }
    }

    /// A biometric key: a strong biometric and nothing else, enforced by the hardware, for every
    /// use. A PIN key: usable only while the device is unlocked, which Android's keystore enforces
    /// (KeyMint lists the tag as keystore-enforced), so either list counts; except on Android 12
    /// to 14 (``unlockedDeviceRuleUnsound``).
    private static func checkUse(_ description: AndroidKeyDescription, kind: RegistrationKind) throws(AttestationFailure) {
        let hardware = description.hardwareEnforced
        let software = description.softwareEnforced
        switch kind {
        case .biometric:
            guard !hardware.noAuthRequired, !software.noAuthRequired,
                hardware.userAuthType == AndroidAuthorizationList.authenticatorBiometric,
                (hardware.authTimeout ?? 0) == 0, software.authTimeout == nil
            else {
                throw AttestationFailure(
                    .notBiometricPerUse,
                    "user auth type \(hardware.userAuthType.map(String.init) ?? "absent"), timeout \(hardware.authTimeout.map(String.init) ?? "absent")"
                )
            }
        case .pin:
            let osVersion = hardware.osVersion ?? software.osVersion
            guard hardware.unlockedDeviceRequired || software.unlockedDeviceRequired || osVersion.map(unlockedDeviceRuleUnsound.contains) == true
            else { throw AttestationFailure(.lockedDeviceUse, "OS version \(osVersion.map(String.init) ?? "absent")") }
        default:
            throw AttestationFailure(.wrongKey, "no rule for a \(kind) key")
        }
    }

    /// The attested OS versions (`MMmmpp`) of Android 12 to 14, on which BioAuthKit for Android makes
    /// the PIN key without `setUnlockedDeviceRequired` (its `KeySpecs.pinKeyUnlockedDeviceOnly`):
    /// there such keys cannot be made without a secure lock screen, are deleted when it is removed
    /// and refuse to sign after a face or Smart Lock unlock (the `KeyGenParameterSpec.Builder`
    /// reference's warning; fixed in Android 15 by AOSP system/security 6946daa). A PIN key of
    /// those versions is not refused for lacking the rule; an absent or zero version is.
    static let unlockedDeviceRuleUnsound = 120_000..<150_000

    private func checkBoot(_ rootOfTrust: AndroidRootOfTrust?) throws(AttestationFailure) -> AndroidRootOfTrust {
        guard let rootOfTrust else { throw AttestationFailure(.malformed, "no root of trust in the hardware's list") }
        let accepted: Bool =
            switch policy.boot {
            case .verified: rootOfTrust.deviceLocked && rootOfTrust.verifiedBootState == .verified
            case .selfSigned: rootOfTrust.deviceLocked && [.verified, .selfSigned].contains(rootOfTrust.verifiedBootState)
            case .any: true
            }
        guard accepted else {
            throw AttestationFailure(.bootState, "\(rootOfTrust.verifiedBootState), bootloader \(rootOfTrust.deviceLocked ? "locked" : "unlocked")")
        }
        return rootOfTrust
    }

    /// Android's package manager fills the application id (the keystore daemon, so the software
    /// list); an app on the allow list must be among its packages, signed with the listed key.
    private func checkApp(_ application: AndroidApplicationID?) throws(AttestationFailure) -> String {
        guard let application else { throw AttestationFailure(.appNotAllowed, "no application id") }
        let allowed = policy.allowedApps.first {
            application.packageNames.contains($0.packageName) && application.signatureDigests.contains($0.signingCertificateDigest)
        }
        guard let allowed else { throw AttestationFailure(.appNotAllowed, "packages \(application.packageNames)") }
        return allowed.packageName
    }
}
