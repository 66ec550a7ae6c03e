import Prometheus

/// Where the database's time goes, as the providers see it: how long each piece of work waited
/// before its first statement, and (SQLite) how long each group commit took and how many
/// transactions it carried. Recorded into the server's registry (``ServerMetrics``).
///
/// | metric | type | labels |
/// |---|---|---|
/// | `bioauth_database_wait_seconds` | histogram | `work` (`read`, `write`, `transaction`): from asking for the database to the first statement. SQLite: the writer's thread and gate (reads take a reading connection and do not queue); PostgreSQL: a pooled connection |
/// | `bioauth_database_commit_seconds` | histogram | none: each SQLite group `COMMIT`, its fsync included |
/// | `bioauth_database_commit_transactions` | histogram | none: transactions one SQLite commit covered |
package final class DatabaseMetrics: Sendable {
    /// What waited for the database: ``DatabaseProvider/read(_:)``, ``DatabaseProvider/withDatabase(_:)``
    /// or ``DatabaseProvider/transaction(_:)``.
    enum Work: String, CaseIterable {
        case read, write, transaction
    }

    /// Fine at the low end, where a healthy database's waits and commits fall.
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    private let waits: [Work: DurationHistogram]
    private let commits: DurationHistogram
    private let groupSizes: ValueHistogram

    init(registry: PrometheusCollectorRegistry) {
        let wait = MetricNameDescriptor(
            namespace: "bioauth",
            subsystem: "database",
            metricName: "wait",
            unitName: "seconds",
            helpText: "Time from asking for the database to the first statement."
        )
        waits = Dictionary(
            uniqueKeysWithValues: Work.allCases.map { work in
                (work, registry.makeDurationHistogram(descriptor: wait, labels: [("work", work.rawValue)], buckets: Self.durationBuckets))
            }
        )
        commits = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "bioauth",
                subsystem: "database",
                metricName: "commit",
                unitName: "seconds",
                helpText: "Each SQLite group commit, its fsync included."
            ),
            buckets: Self.durationBuckets
        )
        groupSizes = registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "bioauth",
                subsystem: "database",
                metricName: "commit",
                unitName: "transactions",
                helpText: "Transactions one SQLite group commit covered."
            ),
            buckets: [1, 2, 4, 8, 16, 32, 64, 128]
        )
    }

    /// `work` began its first statement now, having asked at `start`.
    func waited(_ work: Work, since start: ContinuousClock.Instant) {
        waits[work]?.record(ContinuousClock.now - start)
    }

    /// A group commit of `transactions` transactions, begun at `start`, has just ended.
    func committed(transactions: Int, since start: ContinuousClock.Instant) {
        commits.record(ContinuousClock.now - start)
        groupSizes.record(Double(transactions))
    }
}
