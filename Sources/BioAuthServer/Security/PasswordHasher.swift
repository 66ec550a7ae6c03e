import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Slow hashing for passwords and PINs: bcrypt over a SHA-256 pre-hash.
///
/// bcrypt reads at most 72 bytes and stops at a NUL; passwords may be 256 characters of any
/// script. Hashing the UTF-8 with SHA-256 and feeding bcrypt the 44-character base64 of that digest
/// keeps every character significant. Stored hashes carry a scheme prefix so the scheme can change
/// later without a flag day.
///
/// Hashing runs on NIO's thread pool, never on an event loop.
struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 rounds). Production default 12; tests use less to stay fast.
    let cost: UInt8
    private let dummyHash: String
    private static let scheme = "bcrypt-sha256$"

    /// Production cost: about a quarter of a second per hash on a current server core.
    static let defaultCost: UInt8 = 12

    init(cost: UInt8) {
        precondition((4...31).contains(cost), "bcrypt cost must be 4...31")
        self.cost = cost
        // A real hash of a random secret at the same cost: verifying against it takes exactly
        // as long as verifying a real user's secret, so unknown users cost the same time.
        self.dummyHash = Self.hashNow(Data(SecureRandom.bytes(32)).base64EncodedString(), cost: cost)
    }

    /// Hashes a secret for storage.
    func hash(_ secret: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive {
            Self.hashNow(secret, cost: cost)
        }
    }

    /// Checks a secret against a stored hash, or against the dummy hash when there is none, so
    /// that both paths do the same work. Returns `false` whenever `storedHash` is `nil`.
    func verify(_ secret: String, against storedHash: String?) async throws -> Bool {
        let target = storedHash ?? dummyHash
        let matches = try await NIOThreadPool.singleton.runIfActive {
            Self.verifyNow(secret, hash: target)
        }
        return matches && storedHash != nil
    }

    private static func prehash(_ secret: String) -> String {
        Data(SHA256.hash(data: Data(secret.utf8))).base64EncodedString()
    }

    private static func hashNow(_ secret: String, cost: UInt8) -> String {
        scheme + Bcrypt.hash(prehash(secret), cost: cost)
    }

    private static func verifyNow(_ secret: String, hash: String) -> Bool {
        guard hash.hasPrefix(scheme) else { return false }
        return Bcrypt.verify(prehash(secret), hash: String(hash.dropFirst(scheme.count)))
    }
}
