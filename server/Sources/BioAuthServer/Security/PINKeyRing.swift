import BioAuthProtocol
import Crypto
import Foundation

/// The server keys that PIN hashes are made with (see ``PINHasher``), read from a key file.
///
/// The file holds one key per line, each the base64url of 32 random bytes; blank lines and lines
/// starting with `#` are ignored. The first key is the current one (new hashes); the others only
/// verify hashes made under them, so a key rotates by putting a new first line above the old key,
/// and the old line is removed once the PINs under it were re-hashed or may lapse. A key's id is
/// the first 8 bytes of its SHA-256, in hex: the id is stored with each hash, the key never is.
package struct PINKeyRing: Sendable {
    /// One key.
    struct Key: Sendable {
        let id: String
        private let bytes: Data

        /// HMAC-SHA-256 under this key, its key blocks already hashed: update a copy (value
        /// semantics) instead of setting the key up again for each message.
        let mac: HMAC<SHA256>

        init(_ bytes: Data) {
            self.bytes = bytes
            id = Hex.lowercase(Data(SHA256.hash(data: bytes)).prefix(8))
            mac = HMAC<SHA256>(key: SymmetricKey(data: bytes))
        }

        /// The key for HMAC.
        var secret: SymmetricKey { SymmetricKey(data: bytes) }
    }

    /// The key new hashes are made with.
    let current: Key
    /// Every key, the current one first.
    let keys: [Key]

    /// A ring of keys, the first one current.
    package init(keys: [Data]) {
        precondition(!keys.isEmpty, "a PIN key ring needs a key")
        self.keys = keys.map(Key.init)
        current = self.keys[0]
    }

    /// The key with this id, if the ring has it.
    func key(id: String) -> Key? {
        keys.first { $0.id == id }
    }

    /// Why a key file cannot be used; the text names the file and the rule, never a key.
    struct FileError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the key file at `path`, creating it with one new key (mode 0600) when it does not
    /// exist and `create` is set.
    static func load(path: String, create: Bool) throws -> PINKeyRing {
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard create else { throw FileError(description: "PIN key file \(path) does not exist") }
            let text =
                "# BioAuth PIN hashing keys: the first line is current. Keep this file secret and out of database backups.\n"
                + Base64URL.encode(SecureRandom.bytes(32)) + "\n"
            // Created with 0600 at once, so the key is never readable by others, not even briefly.
            guard manager.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw FileError(description: "cannot create PIN key file \(path)")
            }
        }
        guard let data = manager.contents(atPath: path) else { throw FileError(description: "cannot read PIN key file \(path)") }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The keys in a key file's text.
    static func parse(_ text: String, path: String) throws -> PINKeyRing {
        var keys: [Data] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let key = Base64URL.decode(trimmed), key.count == 32 else {
                throw FileError(description: "PIN key file \(path), line \(number + 1): not the base64url of 32 bytes")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { throw FileError(description: "PIN key file \(path) holds no key") }
        return PINKeyRing(keys: keys)
    }
}
