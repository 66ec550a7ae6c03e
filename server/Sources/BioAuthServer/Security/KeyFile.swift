import BioAuthProtocol
import Crypto
import Foundation

/// A file of server secrets kept apart from the database: the PIN key file (``PINKeyRing``) and
/// the signing-key file (``SigningKeyWrap``) have this one form.
///
/// The file holds one key per line, each the base64url of 32 random bytes; blank lines and lines
/// starting with `#` are ignored. The first key is the current one (new secrets are made with it);
/// the others only open what was made under them, so a key rotates by putting a new first line
/// above the old key. A key's id is the first 8 bytes of its SHA-256, in hex: the id is stored
/// with what the key made, the key never is.
package enum KeyFile {
    /// One key of a file.
    package struct Key: Sendable {
        /// The first 8 bytes of the key's SHA-256, in hex.
        let id: String
        private let bytes: Data
        /// HMAC-SHA-256 under this key, its key blocks already hashed: update a copy (value
        /// semantics) instead of setting the key up again for each message.
        let mac: HMAC<SHA256>

        /// The key with these 32 bytes.
        init(_ bytes: Data) {
            self.bytes = bytes
            id = Hex.lowercase(Data(SHA256.hash(data: bytes)).prefix(8))
            mac = HMAC<SHA256>(key: SymmetricKey(data: bytes))
        }

        /// The key as a symmetric key (HMAC, AEAD, HKDF).
        var secret: SymmetricKey { SymmetricKey(data: bytes) }
    }

    /// Why a key file cannot be used; the text names the file and the rule, never a key.
    package struct FileError: Error, CustomStringConvertible {
        /// What is wrong, naming the file.
        package var description: String
    }

    /// Reads the key file at `path` (its keys, the current first), creating it with one new key
    /// (mode 0600) when it does not exist and `create` is set. `purpose` names the file in errors
    /// and in the new file's first comment: `PIN key file`.
    static func load(path: String, create: Bool, purpose: String) throws -> [Key] {
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard create else { throw FileError(description: "\(purpose) \(path) does not exist") }
            let text =
                "# BioAuth \(purpose): the first line is current. Keep this file secret and out of database backups.\n"
                + Base64URL.encode(SecureRandom.bytes(32)) + "\n"
            // Created with 0600 at once, so the key is never readable by others, not even briefly.
            guard manager.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw FileError(description: "cannot create \(purpose) \(path)")
            }
        }
        guard let data = manager.contents(atPath: path) else { throw FileError(description: "cannot read \(purpose) \(path)") }
        return try parse(String(decoding: data, as: UTF8.self), path: path, purpose: purpose)
    }

    /// The keys in a key file's text, the current one first.
    static func parse(_ text: String, path: String, purpose: String) throws -> [Key] {
        var keys: [Key] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let key = Base64URL.decode(trimmed), key.count == 32 else {
                throw FileError(description: "\(purpose) \(path), line \(number + 1): not the base64url of 32 bytes")
            }
            keys.append(Key(key))
        }
        guard !keys.isEmpty else { throw FileError(description: "\(purpose) \(path) holds no key") }
        return keys
    }
}
