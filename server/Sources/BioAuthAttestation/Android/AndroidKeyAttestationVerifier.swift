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
        let certificates = try Self.certificates(chain)
        let leaf = certificates[0]
        try AndroidAttestationPath.check(certificates, roots: roots, now: now)
        if let listed = certificates.first(where: revocations.lists) {
            throw AttestationFailure(.revoked, "serial \(AndroidRevocationList.key(listed.serialNumber)) (\(listed.subject))")
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

    private static func certificates(_ chain: [[UInt8]]) throws(AttestationFailure) -> [Certificate] {
        guard AndroidAttestationPath.lengths.contains(chain.count) else {
            throw AttestationFailure(.malformed, "a chain of \(chain.count) certificates")
        }
        var certificates: [Certificate] = []
        for (index, der) in chain.enumerated() {
            do { certificates.append(try Certificate(derEncoded: der)) } catch {
                throw AttestationFailure(.malformed, "certificate \(index) is not DER X.509")
            }
        }
        return certificates
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
    /// (KeyMint lists the tag as keystore-enforced), so either list counts.
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
            guard hardware.unlockedDeviceRequired || software.unlockedDeviceRequired else { throw AttestationFailure(.lockedDeviceUse) }
        default:
            throw AttestationFailure(.wrongKey, "no rule for a \(kind) key")
        }
    }

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
