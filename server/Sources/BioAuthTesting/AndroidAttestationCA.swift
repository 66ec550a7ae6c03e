import BioAuthWebAuthn
import Crypto
import Foundation
import SwiftASN1
import X509

/// A throwaway stand-in for Google's attestation hierarchy: a root an operator would add with
/// `--attestation-roots`, an intermediate standing for a device's batch key, and per key a leaf
/// with the key description, as `KeyStore.getCertificateChain` returns them (leaf first, root
/// last).
package struct AndroidAttestationCA: @unchecked Sendable {
    /// The root certificate, to configure as a trust root.
    package let root: Certificate
    /// The intermediate that signs the leaves.
    package let intermediate: Certificate
    private let intermediateKey: P256.Signing.PrivateKey
    private let validity: ClosedRange<Date>

    /// A new hierarchy valid over `validity`. A factory-provisioned one names its intermediate by
    /// serial number, as device makers' batch certificates do; otherwise it is named as Remote Key
    /// Provisioning's are.
    package init(validity: ClosedRange<Date>, factoryProvisioned: Bool = false) throws {
        let rootKey = P256.Signing.PrivateKey()
        intermediateKey = P256.Signing.PrivateKey()
        self.validity = validity
        let rootName = try DistinguishedName { CommonName("BioAuth Test Key Attestation Root") }
        root = try TestCertificateAuthority.certificate(
            subject: rootName,
            publicKey: .init(rootKey.publicKey),
            issuer: rootName,
            issuerKey: .init(rootKey),
            signatureAlgorithm: .ecdsaWithSHA256,
            validity: validity
        )
        intermediate = try TestCertificateAuthority.certificate(
            subject: factoryProvisioned
                ? DistinguishedName([RelativeDistinguishedName(try .init(type: [2, 5, 4, 5], printableString: "b1a5e5d0c0ffee00"))])
                : try DistinguishedName {
                    OrganizationName("TEE")
                    CommonName("BioAuth Test Batch")
                },
            publicKey: .init(intermediateKey.publicKey),
            issuer: rootName,
            issuerKey: .init(rootKey),
            signatureAlgorithm: .ecdsaWithSHA256,
            validity: validity,
            pathLength: 0
        )
    }

    /// The DER chain for `publicKey` whose leaf carries `description`.
    package func chain(for publicKey: Certificate.PublicKey, description: AndroidKeyDescription) throws -> [[UInt8]] {
        let leaf = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: publicKey,
            notValidBefore: Date(timeIntervalSince1970: 0),
            notValidAfter: validity.upperBound,
            issuer: intermediate.subject,
            subject: try DistinguishedName { CommonName("Android Keystore Key") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Certificate.Extension(oid: AndroidKeyDescription.extensionID, critical: false, value: ArraySlice(try description.derEncoded()))
            },
            issuerPrivateKey: .init(intermediateKey)
        )
        return try [leaf, intermediate, root].map { certificate in
            var coder = DER.Serializer()
            try coder.serialize(certificate)
            return coder.serializedBytes
        }
    }
}
