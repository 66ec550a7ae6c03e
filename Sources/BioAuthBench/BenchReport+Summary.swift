import Foundation

extension BenchReport {
    /// The issue's targets for SQLite on the two-core machine.
    package enum Target {
        /// Best biometric throughput over the limit measured in the same run.
        package static let ratioToLimit = 0.70
        /// p99 at half the best throughput, in milliseconds.
        package static let halfLoadP99Milliseconds = 10.0
        /// Server peak resident memory, in bytes.
        package static let peakResidentBytes = 150 * 1_000_000
        /// Median latency with the largest seeded size over that with the smallest.
        package static let growthP50Ratio = 1.25
    }

    /// The figures as text: limits, then per database the sweep, the latencies and the targets.
    package var summary: String {
        var lines: [String] = []
        lines.append("BioAuth benchmark — \(build) build, \(date)")
        lines.append("machine: \(machine.cpu), \(machine.cores) cores, \(machine.memoryBytes / 1_048_576) MiB; data on \(machine.dataFileSystem)")
        lines.append("limits: P-256 verify \(format(limits.p256VerificationsPerSecond))/s on all cores; "
                     + "password verify (bcrypt cost \(limits.passwordCost)) \(format(limits.passwordVerificationsPerSecond, digits: 2))/s")
        for database in databases {
            lines.append("")
            lines.append("[\(database.database)]")
            let probes = database.commitProbes.map { "\(format($0.signInsPerSecond))/s" }.joined(separator: ", then ")
            lines.append("  commit probe: \(probes) sign-ins before and after the loads "
                         + "(\(database.commitProbes.first?.commitsPerSignIn ?? 0) transactions each, one of them durable)")
            lines.append("  limit: \(format(database.limit)) sign-ins/s (\(database.limitedBy))")
            lines.append("  biometric sign-in, closed loop:")
            lines.append("    conns  sign-ins/s  of limit   p50 ms   p99 ms  p99.9 ms  server CPU  client CPU  errors")
            for run in database.biometricSweep {
                lines.append("    " + [
                    pad(String(run.connections), 5), pad(format(run.throughput), 10), pad(percent(run.throughput / database.limit), 8),
                    pad(format(run.latency.p50, digits: 2), 8), pad(format(run.latency.p99, digits: 2), 8), pad(format(run.latency.p999, digits: 2), 9),
                    pad(format(run.serverCPUCores, digits: 2), 10), pad(format(run.clientCPUCores, digits: 2), 10), pad(String(run.errors), 7),
                ].joined(separator: " "))
            }
            let half = database.halfLoad
            lines.append("  biometric at half load (\(format(half.offeredRate ?? 0))/s offered, \(format(half.throughput)) done): "
                         + "p50 \(format(half.latency.p50, digits: 2)) ms, p99 \(format(half.latency.p99, digits: 2)) ms, p99.9 \(format(half.latency.p999, digits: 2)) ms"
                         + "; client start lag p99 \(format(half.startLag?.p99 ?? 0, digits: 2)) ms")
            let password = database.password
            lines.append("  password sign-in (\(password.connections) connections): \(format(password.throughput, digits: 2))/s = "
                         + "\(percent(database.passwordRatioToHashRate)) of the hash rate; p50 \(format(password.latency.p50)) ms, p99 \(format(password.latency.p99)) ms")
            for point in database.growth {
                lines.append("  \(point.accounts) accounts (seeded in \(format(point.seedSeconds, digits: 1)) s): half load p50 \(format(point.halfLoad.latency.p50, digits: 2)) ms, "
                             + "p99 \(format(point.halfLoad.latency.p99, digits: 2)) ms; saturated \(format(point.saturated.throughput))/s; "
                             + "server peak \(point.serverPeakResidentBytes / 1_000_000) MB"
                             + (point.halfLoad.serverBytesWrittenPerOperation.map { "; server wrote \(format($0 / 1024)) KiB per sign-in" } ?? ""))
            }
            lines.append("  growth: p50 ratio \(format(database.growthP50Ratio, digits: 2))")
            lines.append("  targets:")
            lines.append(check("biometric throughput ≥ \(percent(Target.ratioToLimit)) of limit", database.biometricRatioToLimit >= Target.ratioToLimit,
                               percent(database.biometricRatioToLimit)))
            lines.append(check("p99 ≤ \(format(Target.halfLoadP99Milliseconds)) ms at half load", half.latency.p99 <= Target.halfLoadP99Milliseconds,
                               "\(format(half.latency.p99, digits: 2)) ms"))
            lines.append(check("server peak memory ≤ \(Target.peakResidentBytes / 1_000_000) MB", database.serverPeakResidentBytes <= Target.peakResidentBytes,
                               "\(database.serverPeakResidentBytes / 1_000_000) MB"))
            lines.append(check("p50 with \(database.growth.last?.accounts ?? 0) accounts ≤ \(format(Target.growthP50Ratio, digits: 2))× that with \(database.growth.first?.accounts ?? 0)",
                               database.growthP50Ratio <= Target.growthP50Ratio, "\(format(database.growthP50Ratio, digits: 2))×"))
            lines.append(check("no failed request", database.errorCount == 0, "\(database.errorCount) failed"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every failed operation in the run; a benchmark with failures measured something else.
    package var errorCount: Int {
        databases.map(\.errorCount).reduce(0, +)
    }

    private func check(_ target: String, _ met: Bool, _ figure: String) -> String {
        "    \(met ? "met   " : "MISSED") \(target): \(figure)"
    }

    private func format(_ value: Double, digits: Int = 0) -> String {
        String(format: "%.\(digits)f", value)
    }

    private func percent(_ ratio: Double) -> String {
        String(format: "%.0f%%", ratio * 100)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension DatabaseReport {
    /// Failed operations on this database.
    package var errorCount: Int {
        biometricSweep.map(\.errors).reduce(0, +) + halfLoad.errors + password.errors
            + growth.map { $0.halfLoad.errors + $0.saturated.errors }.reduce(0, +)
    }
}
