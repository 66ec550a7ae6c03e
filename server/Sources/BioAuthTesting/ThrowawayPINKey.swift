import BioAuthProtocol
import BioAuthServer
import Foundation

/// The PIN hashing key of the servers tests, the demo and the bench start: one fixed key, so
/// that every server of a test (in process or a `bioauth serve` process over the same database)
/// hashes PINs alike. Never a production key.
package enum ThrowawayPINKey {
    /// The key's bytes.
    package static let key = Data(repeating: 0x5a, count: 32)

    /// The key as a server configuration takes it directly.
    package static let ring = PINKeyRing(keys: [key])

    /// A new file in the temporary folder holding the key (mode 0600), for `--pin-key-file`.
    package static func file() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-\(UUID().uuidString).pin-key").path
        guard
            FileManager.default.createFile(
                atPath: path,
                contents: Data((Base64URL.encode(key) + "\n").utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }
}
