import Foundation

extension BenchReport {
    /// The targets on the two-core machine, per database.
    package struct Target {
        /// Biometric throughput over the floor at the sweep's best connection count.
        package var ratioToFloor: Double
        /// p99 at half the best throughput, in milliseconds.
        package var halfLoadP99Milliseconds: Double
        /// Server CPU time per sign-in at the sweep's best throughput, in microseconds.
        package var serverCPUMicrosecondsPerSignIn: Double
        /// Bytes the server writes per sign-in (SQLite: the WAL and the checkpoints).
        package static let bytesWrittenPerSignIn = 32.0 * 1024
        /// Server peak resident memory, in bytes.
        package static let peakResidentBytes = 150 * 1_000_000
        /// Median latency with the largest seeded size over that with the smallest.
        package static let growthP50Ratio = 1.25

        /// The targets for `database` (`sqlite` or `postgres`): SQLite's group commit should beat
        /// one commit per sign-in; PostgreSQL's server work should cost less than its database's.
        package static func `for`(_ database: String) -> Target {
            database == "sqlite"
                ? Target(ratioToFloor: 1.2, halfLoadP99Milliseconds: 10, serverCPUMicrosecondsPerSignIn: 400)
                : Target(ratioToFloor: 0.8, halfLoadP99Milliseconds: 20, serverCPUMicrosecondsPerSignIn: 500)
        }
    }

    /// The figures as text: limits, then per database the sweep, the latencies and the targets.
    package var summary: String {
        var lines: [String] = []
        lines.append("BioAuth benchmark — \(build) build, \(date)")
        lines.append("machine: \(machine.cpu), \(machine.cores) cores, \(machine.memoryBytes / 1_048_576) MiB; data on \(machine.dataFileSystem)")
        lines.append(
            "limits: P-256 verify \(format(limits.p256VerificationsPerSecond))/s on all cores; "
                + "password verify (bcrypt cost \(limits.passwordCost)) \(format(limits.passwordVerificationsPerSecond, digits: 2))/s"
        )
        for database in databases {
            lines.append("")
            lines.append("[\(database.database)]")
            for (probe, when) in zip(database.floors, ["before the loads", "after the loads"]) {
                let points = probe.points.map {
                    probe.points.count == 1 ? "\(format($0.signInsPerSecond))/s" : "\($0.connections): \(format($0.signInsPerSecond))/s"
                }
                lines.append("  floor \(when): \(points.joined(separator: ", ")) (\(probe.method))")
            }
            let probes = database.commitProbes.map { "\(format($0.signInsPerSecond))/s" }.joined(separator: ", then ")
            lines.append("  commit probe (the server's services without HTTP): \(probes) sign-ins before and after the loads")
            lines.append("  limit: \(format(database.limit)) sign-ins/s (\(database.limitedBy))")
            lines.append("  biometric sign-in, closed loop:")
            lines.append(
                "    conns  sign-ins/s  of floor  of limit   p50 ms   p99 ms  p99.9 ms  server CPU  µs/sign-in  client CPU  errors  peak MB (added)"
            )
            for run in database.biometricSweep {
                lines.append(
                    "    "
                        + [
                            pad(String(run.connections), 5), pad(format(run.throughput), 10),
                            pad(format(run.throughput / database.floor(connections: run.connections), digits: 2) + "×", 8),
                            pad(percent(run.throughput / database.limit), 8),
                            pad(format(run.latency.p50, digits: 2), 8), pad(format(run.latency.p99, digits: 2), 8),
                            pad(format(run.latency.p999, digits: 2), 9),
                            pad(format(run.serverCPUCores, digits: 2), 10), pad(format(run.serverCPUMicrosecondsPerOperation), 11),
                            pad(format(run.clientCPUCores, digits: 2), 10), pad(String(run.errors), 7),
                            pad(megabytes(run), 15),
                        ].joined(separator: " ")
                )
            }
            let half = database.halfLoad
            lines.append(
                "  biometric at half load (\(format(half.offeredRate ?? 0))/s offered, \(format(half.throughput)) done): "
                    + "p50 \(format(half.latency.p50, digits: 2)) ms, p99 \(format(half.latency.p99, digits: 2)) ms, p99.9 \(format(half.latency.p999, digits: 2)) ms"
                    + "; \(format(half.serverCPUMicrosecondsPerOperation)) µs server CPU each; client start lag p99 \(format(half.startLag?.p99 ?? 0, digits: 2)) ms"
                    + peak(half)
            )
            let password = database.password
            lines.append(
                "  password sign-in (\(password.connections) connections): \(format(password.throughput, digits: 2))/s = "
                    + "\(percent(database.passwordRatioToHashRate)) of the hash rate; p50 \(format(password.latency.p50)) ms, p99 \(format(password.latency.p99)) ms"
                    + peak(password)
            )
            if let tokens = database.accessTokens {
                lines.append(
                    "  access tokens minted (\(tokens.connections) connections): \(format(tokens.throughput))/s; "
                        + "\(format(tokens.serverCPUMicrosecondsPerOperation)) µs server CPU each; p50 \(format(tokens.latency.p50, digits: 2)) ms, p99 \(format(tokens.latency.p99, digits: 2)) ms"
                        + peak(tokens)
                )
            }
            if let confirmed = database.confirmations {
                lines.append(
                    "  payments confirmed (\(confirmed.connections) connections; asked, challenged, approved): \(format(confirmed.throughput))/s; "
                        + "\(format(confirmed.serverCPUMicrosecondsPerOperation)) µs server CPU each; p50 \(format(confirmed.latency.p50, digits: 2)) ms, p99 \(format(confirmed.latency.p99, digits: 2)) ms"
                        + peak(confirmed)
                )
            }
            for point in database.growth {
                let floor = database.floor(connections: point.saturated.connections)
                lines.append(
                    "  \(point.accounts) accounts (seeded in \(format(point.seedSeconds, digits: 1)) s): half load p50 \(format(point.halfLoad.latency.p50, digits: 2)) ms, "
                        + "p99 \(format(point.halfLoad.latency.p99, digits: 2)) ms; saturated \(format(point.saturated.throughput))/s "
                        + "(\(format(point.saturated.throughput / floor, digits: 2))× the floor, \(format(point.saturated.serverCPUMicrosecondsPerOperation)) µs CPU each); "
                        + "server peak \(point.serverPeakResidentBytes / 1_000_000) MB in the run"
                        + (point.saturated.serverPeakResidentBytes.map { " (\($0 / 1_000_000) MB saturated)" } ?? "")
                        + (point.halfLoad.serverBytesWrittenPerOperation.map { "; server wrote \(format($0 / 1024)) KiB per sign-in" } ?? "")
                )
                if let times = point.halfLoad.serverTimes { lines.append("    inside the server at half load: " + describe(times)) }
            }
            lines.append("  growth: p50 ratio \(format(database.growthP50Ratio, digits: 2))")
            let target = Target.for(database.database)
            if let count = database.instructions { lines.append("  " + count.summary) }
            let best = database.biometricSweep.max { $0.throughput < $1.throughput }
            lines.append("  targets:")
            if let best {
                let ratio = best.throughput / database.floor(connections: best.connections)
                lines.append(
                    check(
                        "biometric throughput ≥ \(format(target.ratioToFloor, digits: 1))× the floor at the best throughput's \(best.connections) connections",
                        ratio >= target.ratioToFloor,
                        "\(format(ratio, digits: 2))×"
                    )
                )
                lines.append(
                    check(
                        "server CPU ≤ \(format(target.serverCPUMicrosecondsPerSignIn)) µs per biometric sign-in there",
                        best.serverCPUMicrosecondsPerOperation <= target.serverCPUMicrosecondsPerSignIn,
                        "\(format(best.serverCPUMicrosecondsPerOperation)) µs"
                    )
                )
            }
            lines.append(
                check(
                    "p99 ≤ \(format(target.halfLoadP99Milliseconds)) ms at half load",
                    half.latency.p99 <= target.halfLoadP99Milliseconds,
                    "\(format(half.latency.p99, digits: 2)) ms"
                )
            )
            let written = database.growth.compactMap(\.halfLoad.serverBytesWrittenPerOperation)
            if database.database == "sqlite", let most = written.max() {
                lines.append(
                    check(
                        "disk written ≤ \(format(Target.bytesWrittenPerSignIn / 1024)) KiB per sign-in",
                        most <= Target.bytesWrittenPerSignIn,
                        written.map { "\(format($0 / 1024, digits: 1)) KiB" }.joined(separator: ", ")
                    )
                )
            }
            lines.append(
                check(
                    "server peak memory ≤ \(Target.peakResidentBytes / 1_000_000) MB",
                    database.serverPeakResidentBytes <= Target.peakResidentBytes,
                    "\(database.serverPeakResidentBytes / 1_000_000) MB"
                        + (database.peakLoad.map { "; the most in one load \($0.bytes / 1_000_000) MB, \($0.name)" } ?? "")
                )
            )
            lines.append(
                check(
                    "p50 with \(database.growth.last?.accounts ?? 0) accounts ≤ \(format(Target.growthP50Ratio, digits: 2))× that with \(database.growth.first?.accounts ?? 0)",
                    database.growthP50Ratio <= Target.growthP50Ratio,
                    "\(format(database.growthP50Ratio, digits: 2))×"
                )
            )
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

    /// A load's server peak and what the load added to the resident memory it began with, in MB
    /// ("85 (+29)"), or "-" for a report from before peaks were measured per load.
    private func megabytes(_ load: LoadResult) -> String {
        guard let peak = load.serverPeakResidentBytes else { return "-" }
        return "\(peak / 1_000_000) (+\(max(0, peak - (load.serverResidentBytesAtStart ?? peak)) / 1_000_000))"
    }

    /// "; server peak N MB (+M)" for a load whose peak was measured, else nothing.
    private func peak(_ load: LoadResult) -> String {
        load.serverPeakResidentBytes == nil ? "" : "; server peak \(megabytes(load)) MB"
    }

    private func percent(_ ratio: Double) -> String {
        String(format: "%.0f%%", ratio * 100)
    }

    /// The server's own bucketed percentiles, for example "completion p50 ≤ 2.5, p99 ≤ 10 ms".
    private func describe(_ times: ServerTimes) -> String {
        func bounds(_ name: String, _ bounds: ServerTimes.Bounds?) -> String? {
            guard let bounds else { return nil }
            func bound(_ value: Double?) -> String { value.map { "≤ \(format($0, digits: $0 < 1 ? 2 : 1))" } ?? "above the buckets" }
            return "\(name) p50 \(bound(bounds.p50)), p99 \(bound(bounds.p99)) ms"
        }
        let parts = [
            bounds("challenge", times.challengeRequest), bounds("completion", times.completionRequest),
            bounds("read wait", times.readWait), bounds("write wait", times.writeWait), bounds("commit", times.commit),
            times.transactionsPerCommit.map { "\(format($0, digits: 2)) transactions per commit" },
        ]
        return parts.compactMap { $0 }.joined(separator: "; ")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension DatabaseReport {
    /// The load in which the server's memory peaked highest, named, with that peak in bytes;
    /// `nil` when no load's peak was measured.
    package var peakLoad: (name: String, bytes: Int)? {
        let first = growth.first.map { " (\($0.accounts) accounts)" } ?? ""
        var loads: [(String, LoadResult)] = biometricSweep.map { ("biometric sign-in at \($0.connections) connections" + first, $0) }
        loads += [("password sign-in" + first, password)]
        if let accessTokens { loads.append(("access tokens minted" + first, accessTokens)) }
        if let confirmations { loads.append(("payments confirmed" + first, confirmations)) }
        for point in growth {
            loads += [("half load, \(point.accounts) accounts", point.halfLoad), ("saturated, \(point.accounts) accounts", point.saturated)]
        }
        return loads.compactMap { name, load in load.serverPeakResidentBytes.map { (name: name, bytes: $0) } }.max { $0.bytes < $1.bytes }
    }

    /// Failed operations on this database.
    package var errorCount: Int {
        biometricSweep.map(\.errors).reduce(0, +) + halfLoad.errors + password.errors + (accessTokens?.errors ?? 0) + (confirmations?.errors ?? 0)
            + growth.map { $0.halfLoad.errors + $0.saturated.errors }.reduce(0, +)
    }
}
