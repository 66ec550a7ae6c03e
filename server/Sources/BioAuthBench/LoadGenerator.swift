import Foundation
import Histogram
import Synchronization

/// Drives one operation (a whole sign-in) against a running server from many connections, and
/// measures throughput, latency and CPU.
struct LoadGenerator: Sendable {
    /// The operation: connection index, the running count of operations on it, the connection.
    typealias Operation = @Sendable (_ connection: Int, _ iteration: Int, _ http: HTTPConnection) async throws -> Void

    let server: ServerProcess
    let warmup: Duration
    let duration: Duration
    let progress: ProgressLine

    /// A closed loop: `connections` workers, each starting its next operation as soon as the last
    /// one answered. Its throughput at enough connections is the server's maximum.
    func closedLoop(connections: Int, label: String, _ operation: @escaping Operation) async throws -> LoadResult {
        try await measure(connections: connections, offeredRate: nil, label: label, operation)
    }

    /// An open loop: operations fall due at a fixed `rate` whatever the server does, spread over
    /// `connections` workers; latency counts from when each was due.
    func openLoop(rate: Double, connections: Int, label: String, _ operation: @escaping Operation) async throws -> LoadResult {
        try await measure(connections: connections, offeredRate: rate, label: label, operation)
    }

    private func measure(connections: Int, offeredRate: Double?, label: String, _ operation: @escaping Operation) async throws -> LoadResult {
        let clock = ContinuousClock()
        let start = clock.now
        let measureFrom = start.advanced(by: warmup)
        let end = measureFrom.advanced(by: duration)
        let tickets = Tickets()
        let server = self.server
        let residentAtStart = server.resetPeak()
        progress.begin(label, until: end) { tickets.finished.load(ordering: .relaxed) }
        defer { progress.end() }

        async let usage = resourcesSpent(from: measureFrom, to: end, clock: clock)

        let outcomes = try await withThrowingTaskGroup(of: WorkerOutcome.self) { group in
            for connection in 0..<connections {
                group.addTask {
                    var outcome = WorkerOutcome()
                    var iteration = 0
                    while clock.now < end {
                        do {
                            try await HTTPConnection.with(host: server.host, port: server.port) { http in
                                while true {
                                    // When this operation is due: now (closed loop) or on the rate's schedule (open loop).
                                    let due: ContinuousClock.Instant
                                    if let offeredRate {
                                        let ticket = tickets.next.add(1, ordering: .relaxed).oldValue
                                        due = start.advanced(by: .seconds(Double(ticket) / offeredRate))
                                        guard due < end else { return }
                                        if due > clock.now { try await Task.sleep(until: due, tolerance: .microseconds(50), clock: clock) }
                                        if due >= measureFrom { outcome.recordLag(due.duration(to: clock.now)) }
                                    } else {
                                        due = clock.now
                                        guard due < end else { return }
                                    }
                                    do {
                                        try await operation(connection, iteration, http)
                                        let finished = clock.now
                                        if due >= measureFrom, finished <= end {
                                            outcome.record(microseconds: due.duration(to: finished))
                                            tickets.finished.add(1, ordering: .relaxed)
                                        }
                                    } catch let error as HTTPConnection.UnexpectedReply {
                                        outcome.fail(error)
                                    }
                                    iteration += 1
                                }
                            }
                        } catch {
                            // A dropped connection: count it and reconnect.
                            outcome.fail(error)
                        }
                    }
                    return outcome
                }
            }
            var merged = WorkerOutcome()
            for try await outcome in group { merged.merge(outcome) }
            return merged
        }
        let (serverCPU, clientCPU, written, serverTimes) = await usage
        let operations = Int(outcomes.histogram.totalCount)
        return LoadResult(
            connections: connections,
            offeredRate: offeredRate,
            operations: operations,
            errors: outcomes.errors,
            seconds: duration.timeInterval,
            throughput: Double(operations) / duration.timeInterval,
            latency: Latency(outcomes.histogram),
            startLag: offeredRate == nil ? nil : Latency(outcomes.lag),
            serverCPUCores: serverCPU,
            clientCPUCores: clientCPU,
            serverBytesWrittenPerOperation: operations > 0 ? Double(written) / Double(operations) : nil,
            serverPeakResidentBytes: server.peakSinceReset,
            serverResidentBytesAtStart: residentAtStart,
            firstError: outcomes.firstError,
            serverTimes: serverTimes
        )
    }

    /// What the server and this process spent between `from` and `to`: cores of CPU each, bytes
    /// the server wrote, and the server's own timings (from its metrics, if it answers them).
    private func resourcesSpent(
        from: ContinuousClock.Instant,
        to end: ContinuousClock.Instant,
        clock: ContinuousClock
    ) async -> (server: Double, client: Double, written: Int, times: ServerTimes?) {
        try? await Task.sleep(until: from, clock: clock)
        let server0 = server.cpuSeconds
        let client0 = ProcessStats.cpuSeconds(pid: getpid())
        let written0 = server.writtenBytes
        let scrape0 = try? await server.scrapeMetrics()
        try? await Task.sleep(until: end, clock: clock)
        let seconds = duration.timeInterval
        let cores = ((server.cpuSeconds - server0) / seconds, (ProcessStats.cpuSeconds(pid: getpid()) - client0) / seconds)
        let written = server.writtenBytes - written0
        var times: ServerTimes?
        if let scrape0, let scrape1 = try? await server.scrapeMetrics() { times = ServerTimes(from: scrape0, to: scrape1) }
        return (cores.0, cores.1, written, times)
    }
}

/// Counters shared by the workers of one load.
private final class Tickets: Sendable {
    /// The next open-loop ticket.
    let next = Atomic<Int>(0)
    /// Operations finished inside the measured time, for the progress line.
    let finished = Atomic<Int>(0)
}

/// One worker's latencies and failures.
private struct WorkerOutcome: Sendable {
    var histogram = Latency.makeHistogram()
    var lag = Latency.makeHistogram()
    var errors = 0
    var firstError: String?

    mutating func record(microseconds duration: Duration) {
        _ = histogram.record(UInt64(max(1, duration.timeInterval * 1e6)))
    }

    mutating func recordLag(_ duration: Duration) {
        _ = lag.record(UInt64(max(1, duration.timeInterval * 1e6)))
    }

    mutating func fail(_ error: any Error) {
        errors += 1
        if firstError == nil { firstError = String(describing: error) }
    }

    mutating func merge(_ other: WorkerOutcome) {
        histogram.add(other.histogram)
        lag.add(other.lag)
        errors += other.errors
        firstError = firstError ?? other.firstError
    }
}
