import BioAuthServer
import Foundation

/// The password hash's own ceiling on this machine, for `bioauth-dev bench`.
///
/// A password sign-in is bounded by one bcrypt verification by design; this measures how many
/// the server's own hasher (SHA-256 prehash, then bcrypt, on NIO's thread pool) completes per
/// second with every core busy.
enum PasswordHashProbe {
    /// Verifications per second at `cost`, from one task per core for `duration`.
    static func verificationsPerSecond(cost: Int, duration: Duration) async throws -> Double {
        let hasher = PasswordHasher(cost: UInt8(cost))
        let stored = try await hasher.hash("probe password")
        return try await RateProbe.count(tasks: ProcessInfo.processInfo.activeProcessorCount, for: duration) { _ in
            _ = try await hasher.verify("probe password", against: stored)
            return 1
        }.perSecond
    }
}
