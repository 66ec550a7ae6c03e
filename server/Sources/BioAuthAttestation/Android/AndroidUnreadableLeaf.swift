import SwiftASN1
import X509

/// A chain's leaf that swift-certificates cannot read because of its public key alone (an ML-DSA
/// key, an RSA key under 2048 bits): what the path check needs of it, read from its DER (names and
/// serial strictly, as swift-certificates reads them), and what its key is, for the refusal. A
/// leaf that fails for any other reason, or whose key does read, is not one.
struct AndroidUnreadableLeaf {
    /// The signed part, as encoded.
    let tbsCertificate: ArraySlice<UInt8>
    /// The serial number, for the revocation list.
    let serialNumber: Certificate.SerialNumber
    /// Who signed it.
    let issuer: DistinguishedName
    /// The issuer's signature algorithm, when it is one swift-certificates verifies.
    let signatureAlgorithm: Certificate.SignatureAlgorithm?
    /// The signature's bytes.
    let signature: ArraySlice<UInt8>
    /// The key, in words: "ML-DSA-65", "RSA (1024 bits)", or its algorithm's OID.
    let keyType: String

    /// Reads `der`; nil when it is not a certificate whose key alone is unreadable.
    init?(derEncoded der: [UInt8]) {
        guard let root = try? DER.parse(der), let fields = Self.children(root), fields.count == 3,
            var tbs = Self.children(fields[0])?[...],
            let signatureAlgorithm = Self.children(fields[1])?.first.flatMap({ try? ASN1ObjectIdentifier(derEncoded: $0) }),
            let signature = try? ASN1BitString(derEncoded: fields[2])
        else { return nil }
        if tbs.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) { tbs.removeFirst() }
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, extensions.
        guard tbs.count >= 6, let serial = try? ArraySlice<UInt8>(derEncoded: tbs[tbs.startIndex]),
            let issuer = try? DistinguishedName(derEncoded: tbs[tbs.startIndex + 2]),
            (try? DistinguishedName(derEncoded: tbs[tbs.startIndex + 4])) != nil
        else { return nil }
        let spki = tbs[tbs.startIndex + 5]
        guard (try? Certificate.PublicKey(derEncoded: spki)) == nil, let keyType = Self.keyType(spki) else { return nil }
        self.tbsCertificate = fields[0].encodedBytes
        self.serialNumber = Certificate.SerialNumber(bytes: serial)
        self.issuer = issuer
        self.signatureAlgorithm = Self.signatureAlgorithms[signatureAlgorithm]
        self.signature = signature.bytes
        self.keyType = keyType
    }

    /// Whether `issuer`'s key signed this certificate.
    func isSigned(by issuer: Certificate) -> Bool {
        guard let signatureAlgorithm else { return false }
        return issuer.publicKey.isValidSignature(signature, for: tbsCertificate, signatureAlgorithm: signatureAlgorithm)
    }

    /// The signature algorithms of Android attestation chains that swift-certificates verifies.
    private static let signatureAlgorithms: [ASN1ObjectIdentifier: Certificate.SignatureAlgorithm] = [
        [1, 2, 840, 10045, 4, 3, 2]: .ecdsaWithSHA256, [1, 2, 840, 10045, 4, 3, 3]: .ecdsaWithSHA384,
        [1, 2, 840, 10045, 4, 3, 4]: .ecdsaWithSHA512, [1, 2, 840, 113549, 1, 1, 11]: .sha256WithRSAEncryption,
        [1, 2, 840, 113549, 1, 1, 12]: .sha384WithRSAEncryption, [1, 2, 840, 113549, 1, 1, 13]: .sha512WithRSAEncryption,
    ]

    /// FIPS 204's ML-DSA parameter sets (NIST's CSOR OIDs 2.16.840.1.101.3.4.3.17 to 19).
    private static let mlDSA: [ASN1ObjectIdentifier: String] = [
        [2, 16, 840, 1, 101, 3, 4, 3, 17]: "ML-DSA-44", [2, 16, 840, 1, 101, 3, 4, 3, 18]: "ML-DSA-65",
        [2, 16, 840, 1, 101, 3, 4, 3, 19]: "ML-DSA-87",
    ]
    private static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 1, 1]

    /// `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`, in words.
    private static func keyType(_ spki: ASN1Node) -> String? {
        guard let parts = children(spki), parts.count == 2, let algorithm = children(parts[0])?.first,
            let oid = try? ASN1ObjectIdentifier(derEncoded: algorithm)
        else { return nil }
        if let name = mlDSA[oid] { return name }
        if oid == rsaEncryption, let key = try? ASN1BitString(derEncoded: parts[1]), let rsa = try? DER.parse(key.bytes),
            let modulus = children(rsa)?.first, let bytes = try? ArraySlice<UInt8>(derEncoded: modulus)
        {
            let significant = bytes.drop { $0 == 0 }
            let bits = significant.first.map { significant.count * 8 - $0.leadingZeroBitCount } ?? 0
            return "RSA (\(bits) bits)"
        }
        return "algorithm \(oid)"
    }

    private static func children(_ node: ASN1Node) -> [ASN1Node]? {
        guard case .constructed(let nodes) = node.content else { return nil }
        return Array(nodes)
    }
}
