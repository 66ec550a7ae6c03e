import Crypto
import Foundation
import _CryptoExtras

/// The COSE algorithms a credential may use (RFC 9053, IANA "COSE Algorithms"); WebAuthn's
/// `pubKeyCredParams` offers them in this order.
package enum COSEAlgorithm: Int64, CaseIterable, Sendable {
    /// ECDSA with SHA-256 over P-256.
    case es256 = -7
    /// EdDSA; with COSE curve 6, Ed25519.
    case eddsa = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}

/// A credential public key from authenticator data (a COSE_Key, RFC 9052 §7), parsed strictly:
/// its key type, algorithm and curve agree, EC points are on P-256, RSA moduli are 2048 bits or more.
///
/// `@unchecked`: swift-crypto's public keys are immutable values it does not mark `Sendable` on
/// Linux; they are only read.
package enum COSEKey: @unchecked Sendable {
    /// kty 2 (EC2), crv 1 (P-256), alg −7.
    case es256(P256.Signing.PublicKey)
    /// kty 1 (OKP), crv 6 (Ed25519), alg −8.
    case ed25519(Curve25519.Signing.PublicKey)
    /// kty 3 (RSA), alg −257.
    case rs256(_RSA.Signing.PublicKey)

    /// The key's algorithm.
    package var algorithm: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .ed25519: .eddsa
        case .rs256: .rs256
        }
    }

    // COSE labels (RFC 9052 §7.1, RFC 9053 §7).
    private static let kty: Int64 = 1, alg: Int64 = 3, crv: Int64 = -1, x: Int64 = -2, y: Int64 = -3, n: Int64 = -1, e: Int64 = -2

    /// Parses a decoded COSE_Key.
    package init(_ key: CBORValue) throws(WebAuthnError) {
        guard case .map = key else { throw WebAuthnError(.invalidCredentialPublicKey, "not a map") }
        guard let kty = key[Self.kty]?.integer, let algValue = key[Self.alg]?.integer else {
            throw WebAuthnError(.invalidCredentialPublicKey, "kty or alg missing")
        }
        guard let algorithm = COSEAlgorithm(rawValue: algValue) else { throw WebAuthnError(.unsupportedAlgorithm, "alg \(algValue)") }
        switch (algorithm, kty) {
        case (.es256, 2):
            guard key[Self.crv]?.integer == 1 else { throw WebAuthnError(.unsupportedAlgorithm, "ES256 needs crv 1 (P-256)") }
            let x = try Self.bytes(key, Self.x, count: 32, "x")
            let y = try Self.bytes(key, Self.y, count: 32, "y")
            do {
                self = .es256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw WebAuthnError(.weakOrInvalidKey, "the point is not on P-256")
            }
        case (.eddsa, 1):
            guard key[Self.crv]?.integer == 6 else { throw WebAuthnError(.unsupportedAlgorithm, "EdDSA is accepted on crv 6 (Ed25519) only") }
            let x = try Self.bytes(key, Self.x, count: 32, "x")
            do {
                self = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw WebAuthnError(.weakOrInvalidKey, "not an Ed25519 key")
            }
        case (.rs256, 3):
            guard case .bytes(let n)? = key[Self.n], case .bytes(let e)? = key[Self.e], !e.isEmpty, e.count <= 8 else {
                throw WebAuthnError(.invalidCredentialPublicKey, "RSA key needs n and e as byte strings")
            }
            // A leading zero byte would make the length lie about the modulus size.
            guard n.first != 0, n.count >= 256 else { throw WebAuthnError(.weakOrInvalidKey, "the RSA modulus is under 2048 bits") }
            do {
                self = .rs256(try _RSA.Signing.PublicKey(n: n, e: e))
            } catch {
                throw WebAuthnError(.weakOrInvalidKey, "not an RSA public key")
            }
        default:
            throw WebAuthnError(.unsupportedAlgorithm, "alg \(algValue) with kty \(kty)")
        }
    }

    /// Whether `signature` (WebAuthn's encoding for the algorithm: ASN.1 DER for ES256, 64 bytes
    /// for Ed25519, PKCS #1 v1.5 for RS256) signs `data`.
    package func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .ed25519(let key):
            return signature.count == 64 && key.isValidSignature(signature, for: data)
        case .rs256(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }

    private static func bytes(_ key: CBORValue, _ label: Int64, count: Int, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard case .bytes(let bytes)? = key[label], bytes.count == count else {
            throw WebAuthnError(.invalidCredentialPublicKey, "\(name) is not \(count) bytes")
        }
        return bytes
    }
}
