import BioAuthWebAuthn
import Foundation
import SwiftASN1
import X509

/// The path check of an Android key attestation chain, as Google's verifier does it
/// (android/keyattestation's `KeyAttestationCertPathValidator`), not RFC 5280's: devices' batch
/// certificates are often not marked as CAs and cannot be reissued, so the chain is checked for
/// what it must be, a line of names and signatures from a trusted key down to the leaf.
///
/// `KeyStore.getCertificateChain` returns leaf, attestation certificate, one or two
/// intermediates (two when the keys were provisioned remotely, none for software attestation)
/// and a self-issued root; that root is only a name to find the anchor by, whose key must have
/// signed the certificate below it.
enum AndroidAttestationPath {
    /// Software (3), factory-provisioned (4) and remotely provisioned (5) chains, root included.
    static let lengths = 3...5
    /// The subject attribute (serialNumber, 2.5.4.5) that marks a factory-provisioned intermediate.
    private static let serialNumberAttribute: ASN1ObjectIdentifier = [2, 5, 4, 5]

    /// Checks `chain` (leaf first) against `roots` at `now`, or throws ``AttestationFailure/Reason/untrustedChain``.
    ///
    /// - Every certificate is signed by the one above it and names it as its issuer; the topmost
    ///   by a root of the same name.
    /// - Every certificate but the leaf (whose dates the device sets) is valid at `now`; an expired
    ///   one is accepted in a factory-provisioned chain, as Google's verifier does, because those
    ///   keys cannot be rotated: Google revokes them instead (``AndroidRevocationList``).
    /// - Only the leaf carries a key description, so an attested key cannot sign a certificate of
    ///   its own below it and pass that off as the leaf.
    static func check(_ chain: [Certificate], roots: [Certificate], now: Date) throws(AttestationFailure) {
        guard lengths.contains(chain.count), let selfIssued = chain.last, selfIssued.subject == selfIssued.issuer else {
            throw AttestationFailure(.untrustedChain, "the chain does not end with a self-issued root")
        }
        let path = Array(chain.dropLast())
        let top = path[path.count - 1]
        guard let anchor = roots.first(where: { $0.subject == top.issuer && $0.publicKey.isValidSignature(top.signature, for: top) }) else {
            throw AttestationFailure(.untrustedChain, "no configured root signed \(top.issuer)")
        }
        let factoryProvisioned = top.subject.contains { $0.contains { $0.type == serialNumberAttribute } }
        var issuer = anchor
        for (depth, certificate) in path.enumerated().reversed() {
            guard certificate.issuer == issuer.subject, issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                throw AttestationFailure(.untrustedChain, "certificate \(depth) is not signed by \(issuer.subject)")
            }
            if depth > 0 {
                guard now >= certificate.notValidBefore else {
                    throw AttestationFailure(.untrustedChain, "certificate \(depth) is not valid before \(certificate.notValidBefore)")
                }
                guard now <= certificate.notValidAfter || factoryProvisioned else {
                    throw AttestationFailure(.untrustedChain, "certificate \(depth) expired at \(certificate.notValidAfter)")
                }
                guard certificate.extensions[oid: AndroidKeyDescription.extensionID] == nil else {
                    throw AttestationFailure(
                        .untrustedChain,
                        "certificate \(depth) carries a key description: the chain was extended below an attested key"
                    )
                }
            }
            issuer = certificate
        }
    }
}
