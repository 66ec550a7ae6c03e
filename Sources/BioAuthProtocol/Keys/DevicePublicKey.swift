import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A device's public key, parsed and validated from one of the contract's encodings.
///
/// Construction rejects anything that is not a key with ``DevicePublicKey/ParseError``: a P-256
/// point must lie on the curve; an Ed25519 encoding must be canonical and not of small order
/// (see `Ed25519KeyCheck` for the one case left to verification). ``canonicalBytes`` is the one stored form per key (X9.63 for
/// ES256, raw 32 bytes for Ed25519), so the same key sent in two encodings is recognised as one.
public struct DevicePublicKey: Sendable, Hashable {
    /// Why bytes are not an acceptable public key.
    public enum ParseError: Error, Equatable, Sendable {
        /// Neither of the algorithm's accepted encodings, or a SubjectPublicKeyInfo for another algorithm.
        case unrecognisedEncoding
        /// The encoding is right but the bytes are not a valid key (e.g. a point not on the curve).
        case invalidKey
    }

    /// The algorithm this key verifies for.
    public let algorithm: SignatureAlgorithm

    /// The stored form: the 65-byte X9.63 point for ES256, the raw 32 bytes for Ed25519.
    ///
    /// The key is kept in this form (the crypto library's key types are not `Sendable`) and
    /// re-imported to verify; construction has already proved that it imports.
    public let canonicalBytes: Data

    /// Parses a public key sent at registration.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm the client declared.
    ///   - bytes: ES256: X9.63 uncompressed point (65 bytes) or SubjectPublicKeyInfo DER.
    ///     Ed25519: raw 32 bytes or SubjectPublicKeyInfo DER.
    public init(algorithm: SignatureAlgorithm, bytes: Data) throws(ParseError) {
        let bytes = Data(bytes)  // rebase so that indices start at 0
        let canonical: Data
        switch algorithm {
        case .es256:
            if bytes.count == 65, bytes.first == 0x04 {
                canonical = bytes
            } else if let inner = SubjectPublicKeyInfo.p256.point(in: bytes) {
                canonical = inner
            } else {
                throw .unrecognisedEncoding
            }
            // Importing checks that the point lies on the curve.
            guard (try? P256.Signing.PublicKey(x963Representation: canonical)) != nil else { throw .invalidKey }
        case .ed25519:
            if bytes.count == 32 {
                canonical = bytes
            } else if let inner = SubjectPublicKeyInfo.ed25519.point(in: bytes) {
                canonical = inner
            } else {
                throw .unrecognisedEncoding
            }
            guard Ed25519KeyCheck.isAcceptable(canonical),
                (try? Curve25519.Signing.PublicKey(rawRepresentation: canonical)) != nil
            else { throw .invalidKey }
        }
        self.algorithm = algorithm
        self.canonicalBytes = Data(canonical)
    }

    /// Restores a key from its ``canonicalBytes``.
    public init(algorithm: SignatureAlgorithm, canonicalBytes: Data) throws(ParseError) {
        try self.init(algorithm: algorithm, bytes: canonicalBytes)
    }

    /// The key as SubjectPublicKeyInfo DER, the encoding most platforms' libraries read.
    public var subjectPublicKeyInfo: Data {
        switch algorithm {
        case .es256: SubjectPublicKeyInfo.p256.wrap(canonicalBytes)
        case .ed25519: SubjectPublicKeyInfo.ed25519.wrap(canonicalBytes)
        }
    }

    /// Whether `signature` is a valid signature by this key over `message`.
    ///
    /// A signature parsed for another algorithm is never valid.
    public func isValidSignature(_ signature: DeviceSignature, for message: Data) -> Bool {
        switch (algorithm, signature.value) {
        case (.es256, .es256(let raw)):
            guard let key = try? P256.Signing.PublicKey(x963Representation: canonicalBytes),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
            else { return false }
            return key.isValidSignature(signature, for: message)
        case (.ed25519, .ed25519(let raw)):
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: canonicalBytes) else { return false }
            return key.isValidSignature(raw, for: message)
        default:
            return false
        }
    }
}

/// The fixed DER prefixes of the two SubjectPublicKeyInfo forms we accept. With named curves and
/// no optional fields, strict DER allows exactly one byte string per key, so an exact prefix and
/// length match is a complete, strict parser.
struct SubjectPublicKeyInfo {
    let prefix: [UInt8]
    let keyLength: Int

    /// id-ecPublicKey with namedCurve prime256v1, then a BIT STRING holding the X9.63 point.
    static let p256 = SubjectPublicKeyInfo(
        prefix: [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
            0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ],
        keyLength: 65
    )

    /// id-Ed25519 (RFC 8410), then a BIT STRING holding the raw key.
    static let ed25519 = SubjectPublicKeyInfo(
        prefix: [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00],
        keyLength: 32
    )

    func point(in der: Data) -> Data? {
        guard der.count == prefix.count + keyLength, der.starts(with: prefix) else { return nil }
        return der.suffix(keyLength)
    }

    func wrap(_ key: Data) -> Data {
        Data(prefix) + key
    }
}
