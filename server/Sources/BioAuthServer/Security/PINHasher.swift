import Crypto
import Foundation

/// Slow, keyed hashing for PINs: bcrypt over HMAC-SHA-256 of the PIN under a server key that is
/// not in the database (``PINKeyRing``).
///
/// A PIN has only 10^4 to 10^12 values, so a slow hash alone does not stop a thief with a copy of
/// the database from testing them all offline. With the key outside the database, a copy alone
/// cannot test a single guess. The stored form names the key that made it,
/// `hmac-bcrypt$<key id>$<bcrypt>`, so keys can rotate: a hash under an older key still verifies
/// (while that key is in the ring) and is replaced under the current key at the next successful
/// sign-in.
struct PINHasher: Sendable {
    let bcrypt: PasswordHasher
    let keys: PINKeyRing
    private static let scheme = "hmac-bcrypt$"

    /// Hashes a PIN under the current key.
    func hash(_ pin: String) async throws -> String {
        let key = keys.current
        return Self.scheme + key.id + "$" + (try await bcrypt.bcrypt(Self.prehash(pin, key: key)))
    }

    /// The verdict on a PIN against a stored hash.
    enum Verdict: Sendable, Equatable {
        /// Wrong PIN, or a hash under a key this server no longer has.
        case mismatch
        /// Right PIN, hashed under the current key.
        case match
        /// Right PIN, hashed under an older key: store ``hash(_:)`` anew.
        case matchUnderOldKey
    }

    /// Checks a PIN against a stored hash.
    func verify(_ pin: String, against stored: String) async throws -> Verdict {
        guard stored.hasPrefix(Self.scheme) else { return .mismatch }
        let parts = stored.dropFirst(Self.scheme.count).split(separator: "$", maxSplits: 1)
        guard parts.count == 2, let key = keys.key(id: String(parts[0])) else { return .mismatch }
        guard try await bcrypt.verifyBcrypt(Self.prehash(pin, key: key), hash: String(parts[1])) else { return .mismatch }
        return key.id == keys.current.id ? .match : .matchUnderOldKey
    }

    private static func prehash(_ pin: String, key: PINKeyRing.Key) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(pin.utf8), using: key.secret)).base64EncodedString()
    }
}
