import Foundation

/// The password hash's own ceiling on this machine, for `bioauth bench`.
///
/// A password sign-in is bounded by one bcrypt verification by design; this measures how many
/// the server's own hasher (SHA-256 prehash, then bcrypt, on NIO's thread pool) completes per
/// second with every core busy.
public enum PasswordHashProbe {
    /// Verifications per second at `cost`, from one task per core for `duration`.
    public static func verificationsPerSecond(cost: Int, duration: Duration) async throws -> Double {
        let hasher = PasswordHasher(cost: UInt8(cost))
        let stored = try await hasher.hash("probe password")
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let verified = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                group.addTask {
                    var done = 0
                    while clock.now < deadline {
                        _ = try await hasher.verify("probe password", against: stored)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(verified) / start.duration(to: clock.now).timeInterval
    }
}
