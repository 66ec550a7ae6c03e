import Foundation

/// The loop behind every limit `bioauth-dev bench` measures: concurrent tasks repeat an operation
/// until a deadline, and the completed operations are counted.
enum RateProbe {
    /// Operations completed in a measured time.
    struct Count: Sendable {
        /// Operations completed.
        var operations: Int
        /// The measured time in seconds.
        var seconds: Double
        /// Operations per second.
        var perSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }
    }

    /// Runs `batch` from `tasks` concurrent tasks, each again and again until `duration` has
    /// passed, and counts the operations completed.
    ///
    /// - Parameter batch: One round on task number `task`; returns how many operations it completed
    ///   (more than one when a single operation is too short to read the clock after each).
    static func count(
        tasks: Int,
        for duration: Duration,
        _ batch: @escaping @Sendable (_ task: Int) async throws -> Int
    ) async throws -> Count {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let completed = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var done = 0
                    while clock.now < deadline { done += try await batch(task) }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Count(operations: completed, seconds: start.duration(to: clock.now).timeInterval)
    }
}
