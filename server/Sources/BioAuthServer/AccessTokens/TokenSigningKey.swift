import BioAuthProtocol
import Crypto
import Foundation

/// One access-token signing key with its private half: what signs a JWS, and the public JWK that
/// verifies it. ES256 signatures are the raw `r‖s` JWS asks for (RFC 7518 §3.4), not DER.
struct TokenSigningKey: Sendable {
    private enum Private: Sendable {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private let key: Private
    /// The algorithm, as JWS names it.
    let algorithm: AccessTokenAlgorithm
    /// The key id: the public key's RFC 7638 thumbprint.
    let kid: String

    /// A new random key for `algorithm`.
    init(generating algorithm: AccessTokenAlgorithm) {
        switch algorithm {
        case .es256: self.init(.p256(P256.Signing.PrivateKey()), algorithm)
        case .edDSA: self.init(.ed25519(Curve25519.Signing.PrivateKey()), algorithm)
        }
    }

    /// The key whose raw private bytes are `raw`, or `nil` when they are not one.
    init?(algorithm: AccessTokenAlgorithm, raw: Data) {
        switch algorithm {
        case .es256:
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
            self.init(.p256(key), algorithm)
        case .edDSA:
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
            self.init(.ed25519(key), algorithm)
        }
    }

    private init(_ key: Private, _ algorithm: AccessTokenAlgorithm) {
        self.key = key
        self.algorithm = algorithm
        kid = Self.thumbprint(algorithm: algorithm, publicKey: Self.publicRaw(key))
    }

    /// The private key's raw bytes (sealed before they are stored).
    var privateRaw: Data {
        switch key {
        case .p256(let key): key.rawRepresentation
        case .ed25519(let key): key.rawRepresentation
        }
    }

    /// The public key's raw bytes (P-256: x‖y, 64 bytes; Ed25519: 32 bytes).
    var publicRaw: Data { Self.publicRaw(key) }

    private static func publicRaw(_ key: Private) -> Data {
        switch key {
        case .p256(let key): key.publicKey.rawRepresentation
        case .ed25519(let key): key.publicKey.rawRepresentation
        }
    }

    /// The JWS signature over `input` (the encoded header, a dot, the encoded payload).
    func sign(_ input: Data) throws -> Data {
        switch key {
        case .p256(let key): try key.signature(for: input).rawRepresentation
        case .ed25519(let key): try key.signature(for: input)
        }
    }

    /// A compact JWS of `payload` with header `alg`, `kid` and `typ` `type` (`at+jwt`,
    /// `bioauth-receipt+jwt`, …), signed with this key.
    func compactJWS(type: String, payload: JOSEJSON) throws -> String {
        let header = JOSEJSON.object([("alg", .string(algorithm.rawValue)), ("kid", .string(kid)), ("typ", .string(type))])
        let input = Base64URL.encode(header.bytes) + "." + Base64URL.encode(payload.bytes)
        return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
    }

    /// The public JWK's members that RFC 7638 hashes, in its order (`crv`, `kty`, `x`[, `y`]),
    /// for a raw public key of `algorithm`.
    static func requiredMembers(algorithm: AccessTokenAlgorithm, publicKey: Data) -> [(String, JOSEJSON)] {
        switch algorithm {
        case .es256:
            [
                ("crv", .string("P-256")), ("kty", .string("EC")), ("x", .string(Base64URL.encode(publicKey.prefix(32)))),
                ("y", .string(Base64URL.encode(publicKey.suffix(32)))),
            ]
        case .edDSA: [("crv", .string("Ed25519")), ("kty", .string("OKP")), ("x", .string(Base64URL.encode(publicKey)))]
        }
    }

    /// The RFC 7638 thumbprint (SHA-256, base64url) of a raw public key of `algorithm`.
    static func thumbprint(algorithm: AccessTokenAlgorithm, publicKey: Data) -> String {
        Base64URL.encode(Data(SHA256.hash(data: JOSEJSON.object(requiredMembers(algorithm: algorithm, publicKey: publicKey)).bytes)))
    }

    /// The public JWK of a raw public key of `algorithm` with id `kid`, as the key set lists it.
    static func publicJWK(algorithm: AccessTokenAlgorithm, publicKey: Data, kid: String) -> JOSEJSON {
        .object(
            requiredMembers(algorithm: algorithm, publicKey: publicKey) + [
                ("kid", .string(kid)), ("alg", .string(algorithm.rawValue)), ("use", .string("sig")),
            ]
        )
    }
}
