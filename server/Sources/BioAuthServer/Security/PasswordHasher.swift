import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Slow hashing for passwords and PINs: bcrypt over a pre-hash.
///
/// bcrypt reads at most 72 bytes and stops at a NUL; passwords may be 256 characters of any
/// script. Feeding bcrypt the 44-character base64 of a 32-byte digest of the UTF-8 keeps every
/// character significant. Passwords are pre-hashed with SHA-256; PINs with HMAC-SHA-256 under a
/// server key (``PINHasher``). Stored hashes carry a scheme prefix so the scheme can change later
/// without a flag day.
///
/// Hashing runs on NIO's thread pool, never on an event loop, each hash in a slot of the server's
/// ``HashingBudget`` when it has one.
package struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 rounds). Production default 12; tests use less to stay fast.
    let cost: UInt8
    /// The server's bound on hashes; `nil` (an operator's command) runs them as they come.
    let budget: HashingBudget?
    private let dummyHash: String
    private static let scheme = "bcrypt-sha256$"

    /// Production cost: about a quarter of a second per hash on a current server core.
    static let defaultCost: UInt8 = 12

    package init(cost: UInt8) {
        self.init(cost: cost, budget: nil)
    }

    init(cost: UInt8, budget: HashingBudget?) {
        precondition((4...31).contains(cost), "bcrypt cost must be 4...31")
        self.cost = cost
        self.budget = budget
        // A real hash of a random secret at the same cost: verifying against it takes exactly
        // as long as verifying a real user's secret, so unknown users cost the same time.
        self.dummyHash = Self.scheme + Self.bcryptNow(Self.sha256(Data(SecureRandom.bytes(32)).base64EncodedString()), cost: cost)
    }

    /// Hashes a password for storage.
    package func hash(_ secret: String) async throws -> String {
        Self.scheme + (try await bcrypt(Self.sha256(secret)))
    }

    /// Checks a password against a stored hash, or against the dummy hash when there is none, so
    /// that both paths do the same work. Returns `false` whenever `storedHash` is `nil`.
    package func verify(_ secret: String, against storedHash: String?) async throws -> Bool {
        let target = storedHash ?? dummyHash
        guard target.hasPrefix(Self.scheme) else { return false }
        let matches = try await verifyBcrypt(Self.sha256(secret), hash: String(target.dropFirst(Self.scheme.count)))
        return matches && storedHash != nil
    }

    /// Runs `body`, which hashes, in one slot of the budget: taken before a secret's attempt is
    /// reserved, so that a request refused for load counts as no guess.
    func admitted<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let budget else { return try await body() }
        return try await budget.withSlot(body)
    }

    /// bcrypt of an already pre-hashed secret, off the event loops.
    func bcrypt(_ prehashed: String) async throws -> String {
        let cost = self.cost
        return try await admitted { try await NIOThreadPool.singleton.runIfActive { Self.bcryptNow(prehashed, cost: cost) } }
    }

    /// Checks an already pre-hashed secret against a bcrypt hash, off the event loops.
    func verifyBcrypt(_ prehashed: String, hash: String) async throws -> Bool {
        try await admitted { try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(prehashed, hash: hash) } }
    }

    private static func sha256(_ secret: String) -> String {
        Data(SHA256.hash(data: Data(secret.utf8))).base64EncodedString()
    }

    private static func bcryptNow(_ prehashed: String, cost: UInt8) -> String {
        Bcrypt.hash(prehashed, cost: cost)
    }
}
