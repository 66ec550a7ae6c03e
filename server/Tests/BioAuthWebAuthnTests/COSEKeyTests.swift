import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import BioAuthWebAuthn

/// Credential public keys: the three algorithms parse from their COSE form and verify their own
/// signatures; a key whose parts disagree, or whose point or modulus is unsafe, is refused.
@Suite("COSE keys: ES256, Ed25519 and RS256, strictly")
struct COSEKeyTests {
    private static func map(_ entries: [(Int64, CBORValue)]) -> CBORValue {
        .map(entries.map { CBORValue.Entry($0.0 >= 0 ? .unsigned(UInt64($0.0)) : .negative(UInt64(-1 - $0.0)), $0.1) })
    }

    private static func es256(_ key: P256.Signing.PublicKey, alg: Int64 = -7, crv: Int64 = 1) -> CBORValue {
        let point = Array(key.x963Representation)
        return map([
            (1, .unsigned(2)), (3, .negative(UInt64(-1 - alg))), (-1, .unsigned(UInt64(crv))),
            (-2, .bytes(Array(point[1...32]))), (-3, .bytes(Array(point[33...64]))),
        ])
    }

    @Test("an ES256 key verifies its own DER signature and no other message's")
    func es256Verifies() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try COSEKey(Self.es256(privateKey.publicKey))
        let data = Array("authenticatorData || clientDataHash".utf8)
        let signature = Array(try privateKey.signature(for: data).derRepresentation)
        #expect(key.algorithm == .es256)
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature, for: data + [0]))
        #expect(!key.isValidSignature(Array(try privateKey.signature(for: data).rawRepresentation), for: data), "raw r||s is not WebAuthn's encoding")
    }

    @Test("a P-256 point off the curve is refused")
    func offCurvePoint() {
        var point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        point[64] ^= 0x01
        let key = Self.map([
            (1, .unsigned(2)), (3, .negative(6)), (-1, .unsigned(1)), (-2, .bytes(Array(point[1...32]))), (-3, .bytes(Array(point[33...64]))),
        ])
        #expect(throws: WebAuthnError(.weakOrInvalidKey, "the point is not on P-256")) { try COSEKey(key) }
    }

    @Test("key type, algorithm and curve must agree; coordinates must have their lengths")
    func mismatches() {
        let publicKey = P256.Signing.PrivateKey().publicKey
        let cases: [(CBORValue, WebAuthnError.Reason)] = [
            (Self.es256(publicKey, alg: -8), .unsupportedAlgorithm),
            (Self.es256(publicKey, crv: 2), .unsupportedAlgorithm),
            (Self.es256(publicKey, alg: -35), .unsupportedAlgorithm),
            (
                Self.map([(1, .unsigned(2)), (3, .negative(6)), (-1, .unsigned(1)), (-2, .bytes([1])), (-3, .bytes([2]))]),
                .invalidCredentialPublicKey
            ),
            (Self.map([(3, .negative(6))]), .invalidCredentialPublicKey),
            (.array([]), .invalidCredentialPublicKey),
            (
                Self.map([(1, .unsigned(1)), (3, .negative(7)), (-1, .unsigned(4)), (-2, .bytes(Array(repeating: 9, count: 32)))]),
                .unsupportedAlgorithm
            ),
        ]
        for (key, reason) in cases {
            do {
                _ = try COSEKey(key)
                Issue.record("accepted \(key)")
            } catch {
                #expect(error.reason == reason, "\(key): \(error)")
            }
        }
    }

    @Test("an Ed25519 key verifies its own signature")
    func ed25519Verifies() throws {
        let privateKey = Curve25519.Signing.PrivateKey()
        let key = try COSEKey(
            Self.map([(1, .unsigned(1)), (3, .negative(7)), (-1, .unsigned(6)), (-2, .bytes(Array(privateKey.publicKey.rawRepresentation)))])
        )
        let data = Array("message".utf8)
        #expect(key.algorithm == .eddsa)
        #expect(key.isValidSignature(Array(try privateKey.signature(for: data)), for: data))
        #expect(!key.isValidSignature(Array(try privateKey.signature(for: data)), for: data + [1]))
    }

    @Test("an RS256 key of 2048 bits verifies its PKCS #1 v1.5 signature; a shorter modulus is refused")
    func rs256() throws {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        let key = try COSEKey(
            Self.map([
                (1, .unsigned(3)), (3, .negative(256)), (-1, .bytes(Array(primitives.modulus))), (-2, .bytes(Array(primitives.publicExponent))),
            ])
        )
        let data = Array("message".utf8)
        let signature = Array(try privateKey.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        #expect(key.algorithm == .rs256)
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature, for: data + [1]))
        let short = Self.map([
            (1, .unsigned(3)), (3, .negative(256)), (-1, .bytes(Array(primitives.modulus.dropFirst(2)))),
            (-2, .bytes(Array(primitives.publicExponent))),
        ])
        #expect(throws: WebAuthnError(.weakOrInvalidKey, "the RSA modulus is under 2048 bits")) { try COSEKey(short) }
    }
}
