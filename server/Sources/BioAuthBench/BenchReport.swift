import BioAuthServer
import Foundation

/// Everything one `bioauth-dev bench` run measured; written as JSON for the plots and the docs.
package struct BenchReport: Codable, Sendable {
    /// The machine the figures come from.
    package var machine: MachineInfo
    /// The command line.
    package var command: String
    /// When the run started (UTC, ISO 8601).
    package var date: String
    /// `release` or `debug`: debug figures are not worth reporting.
    package var build: String
    /// The CPU-bound ceilings, measured once per run.
    package var limits: CPULimits
    /// One entry per database.
    package var databases: [DatabaseReport]
}

/// The signature and password-hash ceilings with every core busy.
package struct CPULimits: Codable, Sendable {
    /// P-256 ECDSA verifications per second (one per biometric sign-in).
    package var p256VerificationsPerSecond: Double
    /// Password verifications per second at ``passwordCost`` (one per password sign-in).
    package var passwordVerificationsPerSecond: Double
    /// The bcrypt cost measured.
    package var passwordCost: Int
}

/// The figures for one database.
package struct DatabaseReport: Codable, Sendable {
    /// `sqlite` or `postgres`.
    package var database: String
    /// The floor, measured before and after the loads: the reference every throughput is
    /// compared with.
    package var floors: [FloorProbe]
    /// The database's own rate for the transactions of a biometric sign-in, measured before and
    /// after the loads.
    package var commitProbes: [BenchmarkDatabase.CommitRate]
    /// The lower of the two physical limits (the commit rate being the best of
    /// ``commitProbes``), in sign-ins per second.
    package var limit: Double
    /// Which limit that is.
    package var limitedBy: String
    /// The closed-loop sweep of biometric sign-in (challenge and completion, over the first growth size).
    package var biometricSweep: [LoadResult]
    /// The best throughput of the sweep, as a fraction of ``limit``.
    package var biometricRatioToLimit: Double
    /// Biometric sign-in offered at half the best throughput (open loop).
    package var halfLoad: LoadResult
    /// Password sign-in, closed loop.
    package var password: LoadResult
    /// Password sign-in throughput as a fraction of the password-hash rate.
    package var passwordRatioToHashRate: Double
    /// Access tokens minted for signed-in sessions (`POST /v1/sessions/current/access-token`),
    /// closed loop; `nil` in reports from before there were access tokens.
    package var accessTokens: LoadResult?
    /// Payments confirmed (the backend's request, a challenge and the device's approval, each a
    /// request), closed loop; `nil` in reports from before there were confirmations.
    package var confirmations: LoadResult?
    /// The same loads with each seeded size.
    package var growth: [GrowthPoint]
    /// Median latency at half load with the largest seeded size over that with the smallest.
    package var growthP50Ratio: Double
    /// The most memory the server held resident in any of these runs, in bytes.
    package var serverPeakResidentBytes: Int
    /// Instructions per biometric sign-in under callgrind; `nil` when not counted.
    package var instructions: InstructionCount?
}

/// A biometric sign-in's database work with no server code: what the database allows.
package struct FloorProbe: Codable, Sendable {
    /// What ran the statements.
    package var method: String
    /// Sign-ins per second by connection count; SQLite's one writer is measured once, serially.
    package var points: [FloorPoint]
}

/// The floor at one connection count.
package struct FloorPoint: Codable, Sendable {
    /// Concurrent connections (pgbench clients).
    package var connections: Int
    /// Sign-ins per second.
    package var signInsPerSecond: Double
}

extension DatabaseReport {
    /// The floor for `connections`: the best of the probes at that count, or at the nearest count
    /// below it (SQLite's single measurement serves every count).
    package func floor(connections: Int) -> Double {
        floors.compactMap { probe in
            probe.points.filter { $0.connections <= connections }.max { $0.connections < $1.connections }?.signInsPerSecond
                ?? probe.points.first?.signInsPerSecond
        }.max() ?? 0
    }
}

/// One seeded size of the growth runs.
package struct GrowthPoint: Codable, Sendable {
    /// Seeded accounts; each has one registration and one expired session.
    package var accounts: Int
    /// Seconds the seeding took.
    package var seedSeconds: Double
    /// Biometric sign-in at the same offered rate for every size.
    package var halfLoad: LoadResult
    /// Biometric sign-in, closed loop at the sweep's best connection count.
    package var saturated: LoadResult
    /// The server's peak resident memory in this run, in bytes.
    package var serverPeakResidentBytes: Int
}

/// Where the figures were measured.
package struct MachineInfo: Codable, Sendable {
    /// The CPU model (`/proc/cpuinfo`).
    package var cpu: String
    /// Cores the process may use.
    package var cores: Int
    /// Physical memory in bytes.
    package var memoryBytes: UInt64
    /// Kernel release.
    package var kernel: String
    /// The file system the SQLite files were on (`/proc/mounts`).
    package var dataFileSystem: String

    /// This machine.
    static func current(dataDirectory: String) -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return MachineInfo(
            cpu: model,
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            kernel: kernel,
            dataFileSystem: fileSystem(of: dataDirectory)
        )
    }

    /// The type and device of the longest mount point that holds `path`.
    private static func fileSystem(of path: String) -> String {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var best: (point: Substring, description: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = fields[1]
            let holds = absolute == point || point == "/" || absolute.hasPrefix(point + "/")
            if holds, point.count > (best?.point.count ?? -1) {
                best = (point, "\(fields[2]) on \(fields[0]) (\(point))")
            }
        }
        return best?.description ?? "unknown"
    }
}
