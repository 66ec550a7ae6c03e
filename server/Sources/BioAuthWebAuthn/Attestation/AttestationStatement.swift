import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// The statement formats this relying party verifies (WebAuthn Level 3 §8), by identifier; an
/// unknown `fmt` is refused (§7.1 step 22).
enum AttestationStatement {
    /// Verifies `object`'s statement over its authenticator data and the client data's hash, and
    /// says what it proved.
    static func verify(_ object: AttestationObject, clientDataHash: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let signed = object.authenticatorData.bytes + clientDataHash
        switch object.format {
        case "none":
            guard case .map(let entries) = object.statement, entries.isEmpty else {
                throw WebAuthnError(.invalidAttestation, "a none statement must be empty")
            }
            return .none
        case "packed": return try PackedAttestation.verify(object, signed: signed)
        case "fido-u2f": return try FIDOU2FAttestation.verify(object, clientDataHash: clientDataHash)
        case "apple": return try AppleAttestation.verify(object, signed: signed)
        case "android-key": return try AndroidKeyAttestation.verify(object, signed: signed, clientDataHash: clientDataHash)
        case "tpm": return try TPMAttestation.verify(object, signed: signed)
        default: throw WebAuthnError(.unsupportedAttestationFormat, object.format)
        }
    }

    // Shared by the formats.

    /// `attStmt[name]` as a byte string.
    static func bytes(_ statement: CBORValue, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard case .bytes(let bytes)? = statement[name] else { throw WebAuthnError(.invalidAttestation, "\(name) is not a byte string") }
        return bytes
    }

    /// `attStmt.alg`, a COSE algorithm identifier.
    static func algorithm(_ statement: CBORValue) throws(WebAuthnError) -> Int64 {
        guard let alg = statement["alg"]?.integer else { throw WebAuthnError(.invalidAttestation, "alg is not an integer") }
        return alg
    }

    /// `attStmt.x5c`: a non-empty array of DER certificates, leaf first.
    static func certificates(_ statement: CBORValue) throws(WebAuthnError) -> [Certificate] {
        guard case .array(let items)? = statement["x5c"], !items.isEmpty else {
            throw WebAuthnError(.invalidAttestation, "x5c is not a non-empty array")
        }
        var chain: [Certificate] = []
        for item in items {
            guard case .bytes(let der) = item else { throw WebAuthnError(.invalidAttestation, "an x5c entry is not a byte string") }
            do {
                chain.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.invalidAttestation, "an x5c entry is not an X.509 certificate")
            }
        }
        return chain
    }

    /// The X.509 signature algorithm a COSE `alg` names, for statements signed by a certificate's key.
    static func signatureAlgorithm(_ alg: Int64) throws(WebAuthnError) -> Certificate.SignatureAlgorithm {
        switch alg {
        case -7: .ecdsaWithSHA256
        case -35: .ecdsaWithSHA384
        case -36: .ecdsaWithSHA512
        case -8: .ed25519
        case -257: .sha256WithRSAEncryption
        case -258: .sha384WithRSAEncryption
        case -259: .sha512WithRSAEncryption
        // RS1: Windows Hello's TPM statements still use it (§8.3 allows any COSE alg the TPM supports).
        case -65535: .sha1WithRSAEncryption
        default: throw WebAuthnError(.invalidAttestation, "statement alg \(alg) is not supported")
        }
    }

    /// Whether `certificate`'s key made `signature` over `data` with COSE algorithm `alg`.
    static func verifies(_ certificate: Certificate, _ signature: [UInt8], over data: [UInt8], alg: Int64) throws(WebAuthnError) -> Bool {
        certificate.publicKey.isValidSignature(signature, for: data, signatureAlgorithm: try signatureAlgorithm(alg))
    }

    /// id-fido-gen-ce-aaguid (§8.2.1): when a certificate carries it, not critical, it must name
    /// the authenticator data's AAGUID.
    static func checkAAGUIDExtension(_ certificate: Certificate, _ aaguid: [UInt8]) throws(WebAuthnError) {
        guard let ext = certificate.extensions[oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]] else { return }
        guard !ext.critical else { throw WebAuthnError(.invalidAttestation, "the AAGUID extension must not be critical") }
        let inner: ASN1OctetString
        do {
            inner = try ASN1OctetString(derEncoded: ext.value)
        } catch {
            throw WebAuthnError(.invalidAttestation, "the AAGUID extension is not an OCTET STRING")
        }
        guard Array(inner.bytes) == aaguid else { throw WebAuthnError(.invalidAttestation, "the certificate's AAGUID is not the authenticator's") }
    }

    /// Basic constraints, when present, must not make the leaf a CA (§8.2.1, §8.3.1).
    static func checkNotCA(_ certificate: Certificate) throws(WebAuthnError) {
        if let constraints = try? certificate.extensions.basicConstraints, case .isCertificateAuthority = constraints {
            throw WebAuthnError(.invalidAttestation, "the attestation certificate is a CA")
        }
    }

    /// Whether the certificate's subject public key is the credential public key.
    static func sameKey(_ certificate: Certificate, _ key: COSEKey) -> Bool {
        switch key {
        case .es256(let credential): P256.Signing.PublicKey(certificate.publicKey)?.rawRepresentation == credential.rawRepresentation
        case .ed25519(let credential): Curve25519.Signing.PublicKey(certificate.publicKey)?.rawRepresentation == credential.rawRepresentation
        case .rs256(let credential): _RSA.Signing.PublicKey(certificate.publicKey)?.derRepresentation == credential.derRepresentation
        }
    }
}

extension UUID {
    /// The sixteen bytes, in order.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
