import BioAuthProtocol
import Crypto
import Foundation

/// A device key as a phone holds one, in software: it signs the contract's message after a
/// biometric match that its user takes as given. The tests' devices, the bench's phones and the
/// demo's attacker sign with it.
///
/// `@unchecked`: swift-crypto's private keys are immutable values it does not mark `Sendable`
/// on Linux; they are only read (signing), from any number of tasks.
package struct SoftwareDeviceKey: @unchecked Sendable {
    /// How the public key is sent: the contract accepts both.
    package enum Encoding: Sendable { case x963OrRaw, spki }

    private enum Secret {
        case es256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private let secret: Secret

    /// The key's signature algorithm.
    package var algorithm: SignatureAlgorithm {
        switch secret {
        case .es256: .es256
        case .ed25519: .ed25519
        }
    }

    /// The P-256 key's private half, for a test authority that certifies it (nil for Ed25519).
    package var p256: P256.Signing.PrivateKey? {
        guard case .es256(let key) = secret else { return nil }
        return key
    }

    /// A new P-256 key, as the Secure Enclave and StrongBox make.
    package static func es256() -> SoftwareDeviceKey {
        SoftwareDeviceKey(secret: .es256(P256.Signing.PrivateKey()))
    }

    /// A new Ed25519 key.
    package static func ed25519() -> SoftwareDeviceKey {
        SoftwareDeviceKey(secret: .ed25519(Curve25519.Signing.PrivateKey()))
    }

    /// The public key: X9.63 (P-256) or raw (Ed25519), or SubjectPublicKeyInfo DER.
    package func publicKey(_ encoding: Encoding = .x963OrRaw) -> Data {
        let raw: Data =
            switch secret {
            case .es256(let key): key.publicKey.x963Representation
            case .ed25519(let key): key.publicKey.rawRepresentation
            }
        guard encoding == .spki else { return raw }
        // The bytes came from the key itself, so they parse.
        return try! DevicePublicKey(algorithm: algorithm, bytes: raw).subjectPublicKeyInfo
    }

    /// Signs raw bytes: DER for ES256, 64 bytes for Ed25519.
    package func sign(_ bytes: Data) -> Data {
        switch secret {
        case .es256(let key): try! key.signature(for: bytes).derRepresentation
        case .ed25519(let key): try! key.signature(for: bytes)
        }
    }

    /// Signs the contract's message for a ceremony.
    package func sign(_ ceremony: Ceremony, rpID: String = LoopbackServer.relyingPartyID, registrationID: String, challenge: Data) -> Data {
        sign(try! SignedMessage(ceremony: ceremony, relyingPartyID: rpID, registrationID: registrationID, challenge: challenge).encoded())
    }
}
