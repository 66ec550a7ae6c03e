import Foundation

/// The server keys that PIN hashes are made with (see ``PINHasher``), read from a key file
/// (``KeyFile``: one base64url key of 32 bytes a line, the first current). A PIN key rotates by a
/// new first line above the old key; the old line is removed once the PINs under it were re-hashed
/// or may lapse. A key's id is stored with each hash, the key never is.
package struct PINKeyRing: Sendable {
    /// One key.
    typealias Key = KeyFile.Key

    /// Why a key file cannot be used.
    typealias FileError = KeyFile.FileError

    /// What errors and a new file call the file.
    static let purpose = "PIN key file"

    /// The key new hashes are made with.
    let current: Key
    /// Every key, the current one first.
    let keys: [Key]

    /// A ring of keys, the first one current.
    package init(keys: [Data]) {
        self.init(keys.map(Key.init))
    }

    private init(_ keys: [Key]) {
        precondition(!keys.isEmpty, "a PIN key ring needs a key")
        self.keys = keys
        current = keys[0]
    }

    /// The key with this id, if the ring has it.
    func key(id: String) -> Key? {
        keys.first { $0.id == id }
    }

    /// Reads the key file at `path`, creating it with one new key (mode 0600) when it does not
    /// exist and `create` is set.
    static func load(path: String, create: Bool) throws -> PINKeyRing {
        PINKeyRing(try KeyFile.load(path: path, create: create, purpose: purpose))
    }

    /// The keys in a key file's text.
    static func parse(_ text: String, path: String) throws -> PINKeyRing {
        PINKeyRing(try KeyFile.parse(text, path: path, purpose: purpose))
    }
}
