import BioAuthProtocol
import Foundation

/// A device key's public half and where its private half lives; the private key never leaves
/// the secure hardware (ES256) or the biometry-protected keychain item (Ed25519).
public struct DeviceKey: Sendable, Equatable {
    /// The name the key was created under.
    public var name: String
    /// The public key, in the contract's encodings (``DevicePublicKey/canonicalBytes`` is X9.63
    /// for ES256, raw 32 bytes for Ed25519; ``DevicePublicKey/subjectPublicKeyInfo`` for either).
    public var publicKey: DevicePublicKey

    /// The signature algorithm.
    public var algorithm: SignatureAlgorithm { publicKey.algorithm }

    /// Describes a key.
    public init(name: String, publicKey: DevicePublicKey) {
        self.name = name
        self.publicKey = publicKey
    }
}
