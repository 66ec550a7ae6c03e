import Foundation
import X509

/// The CA certificates the test authorities stand up (WebAuthn's attestation root, the stand-ins
/// for Google's and Apple's hierarchies): a CA may sign certificates, nothing else.
enum TestCertificateAuthority {
    /// A CA certificate for `publicKey` named `subject`, issued by `issuer` with `issuerKey`
    /// (self-signed when `issuer` is `subject`), allowing `pathLength` CAs below it.
    static func certificate(
        subject: DistinguishedName,
        publicKey: Certificate.PublicKey,
        issuer: DistinguishedName,
        issuerKey: Certificate.PrivateKey,
        signatureAlgorithm: Certificate.SignatureAlgorithm,
        validity: ClosedRange<Date>,
        pathLength: Int? = nil,
        crlSign: Bool = false
    ) throws -> Certificate {
        try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: publicKey,
            notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound,
            issuer: issuer,
            subject: subject,
            signatureAlgorithm: signatureAlgorithm,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true, cRLSign: crlSign))
            },
            issuerPrivateKey: issuerKey
        )
    }
}
