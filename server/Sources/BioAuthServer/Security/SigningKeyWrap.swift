import Crypto
import Foundation

/// What seals the private halves of the access-token signing keys before they are stored, and
/// opens them again: ChaChaPoly under a key of a key file (``KeyFile``), the key id as
/// associated data, so a sealed key copied onto another key's row does not open. The database
/// holds the sealed box and the id of the file key that made it, never the file key.
package struct SigningKeyWrap: Sendable {
    /// The file's keys, the current one first (it seals; every one opens what it sealed).
    let keys: [KeyFile.Key]

    /// What errors and a new file call the file.
    static let purpose = "signing key file"

    /// Keys read from a signing key file.
    init(keys: [KeyFile.Key]) {
        precondition(!keys.isEmpty, "a signing key wrap needs a key")
        self.keys = keys
    }

    /// Keys derived from the PIN keys (HKDF-SHA256, a label of its own), for a server given no
    /// signing key file: one secret file then covers both, and neither use can stand in for the
    /// other.
    init(derivedFrom pinKeys: PINKeyRing) {
        self.init(keys: pinKeys.keys.map { Self.derive(from: $0) })
    }

    /// The key file at `path`, created (mode 0600) when missing and `create` is set.
    static func load(path: String, create: Bool) throws -> SigningKeyWrap {
        SigningKeyWrap(keys: try KeyFile.load(path: path, create: create, purpose: purpose))
    }

    /// Seals `privateKey` (raw bytes) for the signing key `kid`: the id of the file key used, and
    /// the sealed box (nonce, ciphertext, tag).
    func seal(_ privateKey: Data, kid: String) throws -> (keyID: String, sealed: Data) {
        let key = keys[0]
        let box = try ChaChaPoly.seal(privateKey, using: key.secret, authenticating: Data(kid.utf8))
        return (key.id, box.combined)
    }

    /// The private key `sealed` holds for `kid`, or `nil` when no key of the file made it or the
    /// box was altered.
    func open(_ sealed: Data, keyID: String, kid: String) -> Data? {
        guard let key = keys.first(where: { $0.id == keyID }), let box = try? ChaChaPoly.SealedBox(combined: sealed) else { return nil }
        return try? ChaChaPoly.open(box, using: key.secret, authenticating: Data(kid.utf8))
    }

    /// A key of 32 bytes from a PIN key, under a label of its own.
    private static func derive(from pinKey: KeyFile.Key) -> KeyFile.Key {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: pinKey.secret,
            info: Data("bioauth access-token signing key wrap".utf8),
            outputByteCount: 32
        )
        return KeyFile.Key(derived.withUnsafeBytes { Data($0) })
    }
}
