import BioAuthProtocol

/// Where a load's time went inside the server, from its own histograms (`GET /metrics`) scraped
/// when the measured time began and ended. Percentiles are the upper bounds of the buckets that
/// hold them, so "p99 5 ms" reads "the 99th percentile is at most 5 ms".
package struct ServerTimes: Codable, Sendable {
    /// A bucketed latency, in milliseconds.
    package struct Bounds: Codable, Sendable {
        /// Observations in the measured time.
        package var count: Int
        /// Upper bound of the median; `nil` above the largest bucket.
        package var p50: Double?
        /// Upper bound of the 99th percentile; `nil` above the largest bucket.
        package var p99: Double?

        init?(_ histogram: MetricsScrape.Histogram) {
            guard histogram.count > 0 else { return nil }
            count = Int(histogram.count)
            p50 = histogram.bound(atQuantile: 0.5).map { $0 * 1_000 }
            p99 = histogram.bound(atQuantile: 0.99).map { $0 * 1_000 }
        }
    }

    /// The challenge request (`POST /v1/biometric/challenges`), from the request's arrival at the
    /// router to its answer.
    package var challengeRequest: Bounds?
    /// The completion (`POST /v1/sessions/biometric`), likewise.
    package var completionRequest: Bounds?
    /// Reads waiting for a connection.
    package var readWait: Bounds?
    /// Writes (transactions, and single statements such as PostgreSQL's completion) waiting for
    /// the writer (SQLite: its thread and gate) or for a pooled connection (PostgreSQL).
    package var writeWait: Bounds?
    /// SQLite's group commits, each with its fsync.
    package var commit: Bounds?
    /// Transactions per SQLite group commit, on average.
    package var transactionsPerCommit: Double?

    /// What the server recorded between `start` and `end`.
    init(from start: MetricsScrape, to end: MetricsScrape) {
        func request(_ endpoint: Endpoint) -> Bounds? {
            Bounds(end.change("bioauth_http_request_duration_seconds", labels: ["route": endpoint.template], since: start))
        }
        func wait(_ works: String...) -> Bounds? {
            Bounds(works.map { end.change("bioauth_database_wait_seconds", labels: ["work": $0], since: start) }.reduce(.init(), +))
        }
        challengeRequest = request(.createChallenge)
        completionRequest = request(.signInWithBiometric)
        readWait = wait("read")
        writeWait = wait("write", "transaction")
        commit = Bounds(end.change("bioauth_database_commit_seconds", since: start))
        let groups = end.change("bioauth_database_commit_transactions", since: start)
        transactionsPerCommit = groups.count > 0 ? groups.sum / groups.count : nil
    }
}
