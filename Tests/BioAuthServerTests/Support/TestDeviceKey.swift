import BioAuthProtocol
import Crypto
import Foundation

/// A device key as a phone would hold it, in software: it signs the contract's message.
struct TestDeviceKey: Sendable {
    enum Encoding { case x963OrRaw, spki }

    let algorithm: SignatureAlgorithm
    private let privateKey: Data

    static func es256() -> TestDeviceKey {
        TestDeviceKey(algorithm: .es256, privateKey: P256.Signing.PrivateKey().rawRepresentation)
    }

    static func ed25519() -> TestDeviceKey {
        TestDeviceKey(algorithm: .ed25519, privateKey: Curve25519.Signing.PrivateKey().rawRepresentation)
    }

    /// The public key in the chosen encoding.
    func publicKey(_ encoding: Encoding = .x963OrRaw) -> Data {
        let raw: Data
        switch algorithm {
        case .es256: raw = try! P256.Signing.PrivateKey(rawRepresentation: privateKey).publicKey.x963Representation
        case .ed25519: raw = try! Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation
        }
        let key = try! DevicePublicKey(algorithm: algorithm, bytes: raw)
        return encoding == .spki ? key.subjectPublicKeyInfo : raw
    }

    /// Signs raw bytes: DER for ES256, 64 bytes for Ed25519.
    func sign(_ bytes: Data) -> Data {
        switch algorithm {
        case .es256: try! P256.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: bytes).derRepresentation
        case .ed25519: try! Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: bytes)
        }
    }

    /// Signs the contract's message.
    func sign(_ ceremony: Ceremony, rpID: String = TestServer.relyingPartyID, registrationID: String, challenge: Data) -> Data {
        sign(try! SignedMessage(ceremony: ceremony, relyingPartyID: rpID, registrationID: registrationID, challenge: challenge).encoded())
    }
}
