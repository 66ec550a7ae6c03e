import Crypto
import SwiftASN1
import X509
import _CryptoExtras

/// The `tpm` format (WebAuthn Level 3 §8.3): a TPM 2.0 attestation identity key (AIK, certified
/// by `x5c`) signs a `TPMS_ATTEST` (`certInfo`) that names the credential key's `TPMT_PUBLIC`
/// (`pubArea`) and carries a hash of `authenticatorData ‖ clientDataHash`.
enum TPMAttestation {
    /// tcg-kp-AIKCertificate, the extended key usage an AIK certificate must carry.
    static let aikKeyUsage: ASN1ObjectIdentifier = [2, 23, 133, 8, 3]
    /// tcg-at-tpmManufacturer, in the certificate's subject alternative name.
    static let tpmManufacturer: ASN1ObjectIdentifier = [2, 23, 133, 2, 1]

    static func verify(_ object: AttestationObject, signed: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let statement = object.statement
        guard case .text("2.0")? = statement["ver"] else { throw WebAuthnError(.invalidAttestation, "tpm ver is not 2.0") }
        let alg = try AttestationStatement.algorithm(statement)
        let signature = try AttestationStatement.bytes(statement, "sig")
        let pubAreaBytes = try AttestationStatement.bytes(statement, "pubArea")
        let certInfoBytes = try AttestationStatement.bytes(statement, "certInfo")
        guard statement["x5c"] != nil else { throw WebAuthnError(.invalidAttestation, "tpm needs x5c (ECDAA is not supported)") }
        let chain = try AttestationStatement.certificates(statement)

        let pubArea = try PublicArea(pubAreaBytes)
        guard pubArea.isKey(object.credential.publicKey) else {
            throw WebAuthnError(.invalidAttestation, "pubArea is not the credential public key")
        }
        let certInfo = try CertifyInfo(certInfoBytes)
        guard certInfo.extraData == (try digest(signed, coseAlgorithm: alg)) else {
            throw WebAuthnError(.invalidAttestation, "certInfo.extraData is not the hash of authenticatorData ‖ clientDataHash")
        }
        guard certInfo.attestedName == (try pubArea.name(pubAreaBytes)) else {
            throw WebAuthnError(.invalidAttestation, "certInfo does not name pubArea")
        }
        let aik = chain[0]
        guard try AttestationStatement.verifies(aik, signature, over: certInfoBytes, alg: alg) else {
            throw WebAuthnError(.invalidAttestation, "the tpm signature over certInfo does not verify")
        }
        try checkAIKCertificate(aik, aaguid: object.credential.aaguid.bytes)
        return .certificates(chain)
    }

    /// §8.3.1: version 3, an empty subject, a subject alternative name naming the TPM's
    /// manufacturer, the AIK extended key usage, not a CA, and a matching AAGUID extension.
    static func checkAIKCertificate(_ certificate: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        guard certificate.version == .v3 else { throw WebAuthnError(.invalidAttestation, "the AIK certificate is not version 3") }
        guard certificate.subject.isEmpty else { throw WebAuthnError(.invalidAttestation, "the AIK certificate's subject is not empty") }
        let names = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        let hasManufacturer =
            names?.contains { name in
                guard case .directoryName(let directory) = name else { return false }
                return directory.flatMap { $0 }.contains { $0.type == tpmManufacturer }
            } ?? false
        guard hasManufacturer else { throw WebAuthnError(.invalidAttestation, "the AIK certificate does not name the TPM manufacturer") }
        let usages = (try? certificate.extensions.extendedKeyUsage) ?? nil
        guard usages?.contains(ExtendedKeyUsage.Usage(oid: aikKeyUsage)) == true else {
            throw WebAuthnError(.invalidAttestation, "the AIK certificate lacks the tcg-kp-AIKCertificate key usage")
        }
        try AttestationStatement.checkNotCA(certificate)
        try AttestationStatement.checkAAGUIDExtension(certificate, aaguid)
    }

    /// The hash of `data` under the digest of a COSE algorithm (RS1 → SHA-1, else its SHA-2).
    static func digest(_ data: [UInt8], coseAlgorithm alg: Int64) throws(WebAuthnError) -> [UInt8] {
        switch alg {
        case -65535: Array(Insecure.SHA1.hash(data: data))
        case -7, -257, -37: Array(SHA256.hash(data: data))
        case -35, -258, -38: Array(SHA384.hash(data: data))
        case -36, -259, -39: Array(SHA512.hash(data: data))
        default: throw WebAuthnError(.invalidAttestation, "statement alg \(alg) is not supported")
        }
    }

    /// A `TPMT_PUBLIC` (TPM 2.0 Part 2 §12.2.4): the credential key as the TPM holds it.
    struct PublicArea {
        enum Key {
            case rsa(modulus: [UInt8], exponent: UInt32)
            case ecc(curve: UInt16, x: [UInt8], y: [UInt8])
        }
        var nameAlgorithm: UInt16
        var key: Key

        init(_ bytes: [UInt8]) throws(WebAuthnError) {
            var reader = TPMReader(bytes)
            let type = try reader.u16()
            nameAlgorithm = try reader.u16()
            _ = try reader.u32()  // objectAttributes
            _ = try reader.sized()  // authPolicy
            switch type {
            case 0x0001:  // TPM_ALG_RSA: symmetric, scheme, keyBits, exponent; unique = modulus
                _ = try reader.u16()
                _ = try reader.u16()
                _ = try reader.u16()
                let exponent = try reader.u32()
                key = .rsa(modulus: try reader.sized(), exponent: exponent == 0 ? 65537 : exponent)
            case 0x0023:  // TPM_ALG_ECC: symmetric, scheme, curveID, kdf; unique = x, y
                _ = try reader.u16()
                _ = try reader.u16()
                let curve = try reader.u16()
                _ = try reader.u16()
                key = .ecc(curve: curve, x: try reader.sized(), y: try reader.sized())
            default:
                throw WebAuthnError(.invalidAttestation, "pubArea type \(type) is neither RSA nor ECC")
            }
            try reader.end()
        }

        func isKey(_ credential: COSEKey) -> Bool {
            switch (key, credential) {
            case (.ecc(let curve, let x, let y), .es256(let key)):
                // TPM_ECC_NIST_P256.
                return curve == 0x0003 && [0x04] + x + y == Array(key.x963Representation)
            case (.rsa(let modulus, let exponent), .rs256(let key)):
                let e = withUnsafeBytes(of: exponent.bigEndian) { Array($0) }.drop { $0 == 0 }
                guard let tpmKey = try? _RSA.Signing.PublicKey(n: modulus, e: Array(e)) else { return false }
                return tpmKey.derRepresentation == key.derRepresentation
            default:
                return false
            }
        }

        /// The object's TPM name: `nameAlg ‖ H(pubArea)`.
        func name(_ pubArea: [UInt8]) throws(WebAuthnError) -> [UInt8] {
            let hash: [UInt8] =
                switch nameAlgorithm {
                case 0x0004: Array(Insecure.SHA1.hash(data: pubArea))
                case 0x000B: Array(SHA256.hash(data: pubArea))
                case 0x000C: Array(SHA384.hash(data: pubArea))
                case 0x000D: Array(SHA512.hash(data: pubArea))
                default: throw WebAuthnError(.invalidAttestation, "pubArea nameAlg \(nameAlgorithm) is not supported")
                }
            return [UInt8(nameAlgorithm >> 8), UInt8(nameAlgorithm & 0xFF)] + hash
        }
    }

    /// A `TPMS_ATTEST` of type `TPM_ST_ATTEST_CERTIFY` (Part 2 §10.12.8).
    struct CertifyInfo {
        var extraData: [UInt8]
        var attestedName: [UInt8]

        init(_ bytes: [UInt8]) throws(WebAuthnError) {
            var reader = TPMReader(bytes)
            guard try reader.u32() == 0xFF54_4347 else { throw WebAuthnError(.invalidAttestation, "certInfo magic is not TPM_GENERATED_VALUE") }
            guard try reader.u16() == 0x8017 else { throw WebAuthnError(.invalidAttestation, "certInfo type is not TPM_ST_ATTEST_CERTIFY") }
            _ = try reader.sized()  // qualifiedSigner
            extraData = try reader.sized()
            _ = try reader.take(17)  // clockInfo
            _ = try reader.take(8)  // firmwareVersion
            attestedName = try reader.sized()
            _ = try reader.sized()  // qualifiedName
            try reader.end()
        }
    }

    /// Big-endian fields and `TPM2B` (16-bit size, then bytes) structures, with no trailing bytes.
    struct TPMReader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func take(_ count: Int) throws(WebAuthnError) -> [UInt8] {
            guard count <= bytes.count - offset else { throw WebAuthnError(.invalidAttestation, "a TPM structure is truncated") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func u16() throws(WebAuthnError) -> UInt16 { try take(2).reduce(0) { $0 << 8 | UInt16($1) } }
        mutating func u32() throws(WebAuthnError) -> UInt32 { try take(4).reduce(0) { $0 << 8 | UInt32($1) } }
        mutating func sized() throws(WebAuthnError) -> [UInt8] { try take(Int(try u16())) }

        func end() throws(WebAuthnError) {
            guard offset == bytes.count else { throw WebAuthnError(.invalidAttestation, "bytes follow a TPM structure") }
        }
    }
}
