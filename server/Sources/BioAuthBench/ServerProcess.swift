import BioAuthProtocol
import BioAuthTesting
import Foundation

/// A `bioauth serve` child process on a loopback port, watched through `/proc`.
///
/// The server runs in its own process so that its CPU time and memory are its own, not mixed with
/// the load generator's.
final class ServerProcess: @unchecked Sendable {
    let server: BioAuthProcess
    let host = "127.0.0.1"
    let port: Int
    /// The port of its metrics listener (`GET /metrics`).
    let metricsPort: Int

    private init(server: BioAuthProcess, port: Int, metricsPort: Int) {
        self.server = server
        self.port = port
        self.metricsPort = metricsPort
    }

    private var process: Process { server.process }

    /// The server's process id (valgrind's, when it runs under valgrind: the same process).
    var pid: Int32 { process.processIdentifier }

    /// Starts the build's `bioauth serve` with `arguments` after the defaults, through `launcher`
    /// with `environment` added when given (``Callgrind``), and waits for its "listening" lines.
    static func start(
        database: String,
        arguments: [String],
        launcher: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let server = try BioAuthProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--database", database, "--log-level", "warning"]
                + ["--pin-key-file", try ThrowawayPINKey.file()] + arguments,
            environment: environment,
            launcher: launcher,
            passStandardError: true
        )
        do {
            let port = try await server.waitForPort(timeout: .seconds(launcher.isEmpty ? 30 : 300))
            return ServerProcess(server: server, port: port, metricsPort: try await server.waitForMetricsPort())
        } catch {
            server.process.terminate()
            throw error
        }
    }

    /// The server's histograms now, from its metrics listener.
    func scrapeMetrics() async throws -> MetricsScrape {
        let reply = try await HTTPConnection.with(host: host, port: metricsPort) { try await $0.send(.GET, "/metrics") }
        return MetricsScrape(String(buffer: reply.body))
    }

    /// CPU seconds (user and system) the server has used so far.
    var cpuSeconds: Double {
        ProcessStats.cpuSeconds(pid: process.processIdentifier)
    }

    /// Bytes the server has caused to be written to storage so far (`write_bytes` of
    /// `/proc/PID/io`: the WAL, and the database file through checkpoints).
    var writtenBytes: Int {
        ProcessStats.field(of: "io", pid: process.processIdentifier, named: "write_bytes") ?? 0
    }

    /// The most memory the server has held resident so far, in bytes: the highest of every
    /// reading ``resetPeak()`` folded in and the kernel's peak since.
    var peakResidentBytes: Int {
        peakLock.withLock { max(foldedPeak, peakSinceReset) }
    }

    /// The most memory the server has held resident since the last ``resetPeak()`` (or its
    /// start), in bytes: the kernel's VmHWM.
    var peakSinceReset: Int {
        (ProcessStats.field(of: "status", pid: process.processIdentifier, named: "VmHWM") ?? 0) * 1024
    }

    /// Starts a new peak for ``peakSinceReset`` (writing 5 to `/proc/PID/clear_refs` sets VmHWM
    /// to the resident size now), keeping the old one in ``peakResidentBytes``; returns the
    /// resident size it starts from, in bytes.
    @discardableResult
    func resetPeak() -> Int {
        peakLock.withLock {
            foldedPeak = max(foldedPeak, peakSinceReset)
            try? "5".write(toFile: "/proc/\(process.processIdentifier)/clear_refs", atomically: false, encoding: .utf8)
            return peakSinceReset
        }
    }

    private let peakLock = NSLock()
    private var foldedPeak = 0

    /// Stops the server with SIGTERM (a graceful drain) and waits for it.
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while process.isRunning, clock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Readings from `/proc` for a process.
enum ProcessStats {
    /// User plus system CPU seconds of `pid` (`/proc/PID/stat` fields 14 and 15).
    static func cpuSeconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A numeric field of `/proc/PID/<file>` in its own unit (`kB` for `status`'s VmHWM, bytes
    /// for `io`'s write_bytes).
    static func field(of file: String, pid: Int32, named name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
