/// What one measured load did.
package struct LoadResult: Codable, Sendable {
    /// Concurrent connections, each one device's app.
    package var connections: Int
    /// The offered rate for an open-loop load (operations per second); `nil` for a closed loop.
    package var offeredRate: Double?
    /// Operations finished within the measured time.
    package var operations: Int
    /// Operations that failed (any unexpected status or a dropped connection).
    package var errors: Int
    /// The measured time in seconds (warm-up excluded).
    package var seconds: Double
    /// Operations per second.
    package var throughput: Double
    /// Operation latency. For an open loop it counts from when the operation was due, so a
    /// server that falls behind shows it (no coordinated omission).
    package var latency: Latency
    /// Open loop only: how late the load generator itself started operations (its timer and
    /// scheduling), already included in ``latency``. Large values mean the client, not the
    /// server, was behind.
    package var startLag: Latency?
    /// The server's CPU use, in cores, over the measured time.
    package var serverCPUCores: Double
    /// The load generator's own CPU use, in cores.
    package var clientCPUCores: Double
    /// Bytes the server wrote to storage per operation over the measured time (the database's
    /// log and checkpoints; PostgreSQL's writes are its own processes' and not counted).
    package var serverBytesWrittenPerOperation: Double?
    /// The server's peak resident memory during this load (its warm-up included), in bytes;
    /// `nil` in reports from before it was measured per load.
    package var serverPeakResidentBytes: Int?
    /// The server's resident memory when this load began, in bytes (the peak less this is what
    /// the load added); `nil` as for ``serverPeakResidentBytes``.
    package var serverResidentBytesAtStart: Int?
    /// The first failure, if any.
    package var firstError: String?
    /// Where the time went inside the server, from its metrics; `nil` if they could not be read.
    package var serverTimes: ServerTimes?

    /// Server CPU time per operation, in microseconds.
    package var serverCPUMicrosecondsPerOperation: Double {
        throughput > 0 ? serverCPUCores / throughput * 1_000_000 : 0
    }
}
