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
        guard let leaf = chain.first else { throw AttestationFailure(.untrustedChain, "an empty chain") }
        try check(
            leafIssuer: leaf.issuer,
            leafSignedBy: { $0.publicKey.isValidSignature(leaf.signature, for: leaf) },
            above: Array(chain.dropFirst()),
            roots: roots,
            now: now
        )
    }

    /// Checks a chain whose leaf swift-certificates cannot read for its key alone (`above` holds
    /// the rest, root last), as ``check(_:roots:now:)`` checks any other.
    static func check(_ leaf: AndroidUnreadableLeaf, above: [Certificate], roots: [Certificate], now: Date) throws(AttestationFailure) {
        try check(leafIssuer: leaf.issuer, leafSignedBy: leaf.isSigned(by:), above: above, roots: roots, now: now)
    }

    private static func check(
        leafIssuer: DistinguishedName,
        leafSignedBy: (Certificate) -> Bool,
        above: [Certificate],
        roots: [Certificate],
        now: Date
    ) throws(AttestationFailure) {
        guard lengths.contains(above.count + 1), let selfIssued = above.last, selfIssued.subject == selfIssued.issuer else {
            throw AttestationFailure(.untrustedChain, "the chain does not end with a self-issued root")
        }
        let intermediates = Array(above.dropLast())
        let top = intermediates[intermediates.count - 1]
        guard let anchor = roots.first(where: { $0.subject == top.issuer && $0.publicKey.isValidSignature(top.signature, for: top) }) else {
            throw AttestationFailure(.untrustedChain, "no configured root signed \(top.issuer)")
        }
        let factoryProvisioned = top.subject.contains { $0.contains { $0.type == serialNumberAttribute } }
        var issuer = anchor
        for (index, certificate) in intermediates.enumerated().reversed() {
            let depth = index + 1
            guard certificate.issuer == issuer.subject, issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                throw AttestationFailure(.untrustedChain, "certificate \(depth) is not signed by \(issuer.subject)")
            }
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
            issuer = certificate
        }
        guard leafIssuer == issuer.subject, leafSignedBy(issuer) else {
            throw AttestationFailure(.untrustedChain, "certificate 0 is not signed by \(issuer.subject)")
        }
    }
}
