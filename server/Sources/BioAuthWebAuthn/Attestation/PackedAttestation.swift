import SwiftASN1
import X509

/// The `packed` format (WebAuthn Level 3 §8.2): a signature over `authenticatorData ‖
/// clientDataHash`, by an attestation certificate (`x5c`) or by the credential key itself (self
/// attestation).
enum PackedAttestation {
    static func verify(_ object: AttestationObject, signed: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let statement = object.statement
        let alg = try AttestationStatement.algorithm(statement)
        let signature = try AttestationStatement.bytes(statement, "sig")
        guard statement["x5c"] != nil else {
            // Self attestation: the statement's alg is the credential's, and its own key signed.
            guard alg == object.credential.publicKey.algorithm.rawValue else {
                throw WebAuthnError(.invalidAttestation, "self attestation alg \(alg) is not the credential's")
            }
            guard object.credential.publicKey.isValidSignature(signature, for: signed) else {
                throw WebAuthnError(.invalidAttestation, "the self attestation signature does not verify")
            }
            return .selfAttestation
        }
        let chain = try AttestationStatement.certificates(statement)
        let leaf = chain[0]
        guard try AttestationStatement.verifies(leaf, signature, over: signed, alg: alg) else {
            throw WebAuthnError(.invalidAttestation, "the packed signature does not verify with the attestation certificate")
        }
        try checkCertificate(leaf)
        try AttestationStatement.checkAAGUIDExtension(leaf, object.credential.aaguid.bytes)
        return .certificates(chain)
    }

    /// §8.2.1: version 3; subject with C, O, OU "Authenticator Attestation" and CN; not a CA.
    static func checkCertificate(_ certificate: Certificate) throws(WebAuthnError) {
        guard certificate.version == .v3 else { throw WebAuthnError(.invalidAttestation, "the attestation certificate is not version 3") }
        let subject = certificate.subject
        let attributes = subject.flatMap { $0 }
        func has(_ oid: ASN1ObjectIdentifier) -> Bool { attributes.contains { $0.type == oid } }
        guard has(.RDNAttributeType.countryName), has(.RDNAttributeType.organizationName), has(.RDNAttributeType.commonName),
            attributes.contains(where: { $0.type == .RDNAttributeType.organizationalUnitName && $0.value.description == "Authenticator Attestation" })
        else {
            throw WebAuthnError(.invalidAttestation, "the attestation certificate's subject lacks C, O, OU=Authenticator Attestation or CN")
        }
        try AttestationStatement.checkNotCA(certificate)
    }
}
