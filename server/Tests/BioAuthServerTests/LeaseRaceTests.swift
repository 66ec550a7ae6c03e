import PostgresNIO
import Synchronization
import Testing

@testable import BioAuthServer

/// The wait for a pooled PostgreSQL connection, watched by one task for every call: a wait that
/// runs out is answered `DatabaseUnavailable` on the watch's next round, and the lease it gave up
/// is cancelled (so the pool hands a connection that comes later straight back).
@Suite("PostgreSQL connection wait")
struct LeaseRaceTests {
    /// A pool that never lends: it waits until cancelled, and says whether it was.
    private final class StuckPool: Sendable {
        private let cancelled = Atomic<Int>(0)
        var cancellations: Int { cancelled.load(ordering: .relaxed) }

        func lease(_ body: (PostgresConnection) async throws -> Void) async throws {
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.add(1, ordering: .relaxed)
                throw error
            }
        }
    }

    @Test("waits that run out are answered unavailable, long before the pool would lend, each lease cancelled")
    func waitsRunOut() async throws {
        let watch = LeaseWatch(interval: .milliseconds(20))
        let watcher = Task { await watch.run() }
        defer { watcher.cancel() }
        let pool = StuckPool()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for wait in [Duration.milliseconds(100), .milliseconds(300)] {
                group.addTask {
                    let asked = ContinuousClock.now
                    let error = await #expect(throws: DatabaseUnavailable.self) {
                        try await LeaseRace.run(
                            waitingAtMost: wait,
                            watchedBy: watch,
                            lease: { try await pool.lease($0) },
                            classify: { error, _ in error as? DatabaseUnavailable }
                        ) { _ in Issue.record("no connection was lent") }
                    }
                    let waited = ContinuousClock.now - asked
                    #expect(error?.reason == "no connection within \(wait)")
                    // Half the stuck pool's minute: a full test run can keep the watch's task
                    // waiting for a thread for seconds, and no bound on that is this test's to check.
                    #expect(waited >= wait && waited < .seconds(30), "waited \(waited)")
                }
            }
            try await group.waitForAll()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while pool.cancellations < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(pool.cancellations == 2)
    }
}
