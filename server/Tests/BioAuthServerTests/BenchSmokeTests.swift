import BioAuthTesting
import Foundation
import Testing

/// `bioauth-dev bench --smoke`: every part of the benchmark runs (limits, floor, commit probe, seeding,
/// enrolment, closed and open loops, password sign-in, growth, JSON), on the suite's database.
/// Its figures mean nothing; the full benchmark is `scripts/bench` (docs/BENCHMARKS.md).
@Suite("bioauth-dev bench (smoke)", .serialized)
struct BenchSmokeTests {
    @Test("a smoke run finishes without a failed request and reports every figure")
    func smokeRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("results.json").path
        var arguments = ["bench", "--smoke", "--data-dir", folder.path, "--json", json]
        if TestDatabase.current == .postgres {
            arguments += ["--no-sqlite", "--postgres-url", try #require(TestDatabase.postgresURL)]
        }
        let bench = try ServeCommandTests.launch(arguments, program: .developerTool)
        let status = try await bench.waitForExit(timeout: .seconds(240))
        #expect(status == 0, "stdout: \(bench.stdout)\nstderr: \(bench.stderr)")
        #expect(bench.stdout.contains("targets:"))

        let report = try JSONDecoder().decode(SmokeReport.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(report.limits.p256VerificationsPerSecond > 0)
        #expect(report.limits.passwordVerificationsPerSecond > 0)
        let database = try #require(report.databases.first)
        #expect(database.database == TestDatabase.current.rawValue)
        #expect(database.floors.count == 2)
        // SQLite's floor is one serial measurement; PostgreSQL's is pgbench at each of the sweep's counts.
        let floorCounts = TestDatabase.current == .postgres ? [1, 4] : [1]
        #expect(database.floors.allSatisfy { $0.points.map(\.connections) == floorCounts && $0.points.allSatisfy { $0.signInsPerSecond > 0 } })
        #expect(bench.stdout.contains("× the floor"))
        #expect(database.commitProbes.count == 2 && database.commitProbes.allSatisfy { $0.signIns > 0 })
        #expect(database.biometricSweep.map(\.connections) == [1, 4])
        #expect(database.biometricSweep.allSatisfy { $0.operations > 0 && $0.errors == 0 && $0.latency.p50 > 0 })
        #expect(database.halfLoad.operations > 0 && database.halfLoad.offeredRate != nil)
        // The server's own histograms, scraped around the measured time: every sign-in is one
        // challenge and one completion, whose writes waited for the database.
        let inside = try #require(database.halfLoad.serverTimes, "the half load read the server's metrics")
        #expect(inside.challengeRequest?.count ?? 0 > 0 && inside.completionRequest?.count ?? 0 > 0 && inside.writeWait?.count ?? 0 > 0)
        #expect(((inside.commit?.count ?? 0) > 0) == (TestDatabase.current == .sqlite), "group commits are SQLite's")
        #expect(bench.stdout.contains("inside the server at half load: challenge p50 ≤"))
        #expect(database.password.operations > 0)
        #expect(database.accessTokens.operations > 0 && database.accessTokens.errors == 0)
        #expect(bench.stdout.contains("access tokens minted"))
        #expect(database.growth.map(\.accounts) == [10, 100])
        #expect(database.serverPeakResidentBytes > 1_000_000, "VmHWM read from /proc")
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("bioauth-bench-\(bench.process.processIdentifier)-probe.sqlite").path
            ),
            "scratch databases are removed"
        )
    }
}

/// The parts of the JSON report this test reads.
private struct SmokeReport: Decodable {
    struct Limits: Decodable {
        var p256VerificationsPerSecond: Double
        var passwordVerificationsPerSecond: Double
    }
    struct Load: Decodable {
        struct Latency: Decodable { var p50: Double }
        var connections: Int
        var offeredRate: Double?
        var operations: Int
        var errors: Int
        var latency: Latency
        var serverTimes: ServerTimes?
    }
    struct ServerTimes: Decodable {
        struct Bounds: Decodable { var count: Int }
        var challengeRequest: Bounds?
        var completionRequest: Bounds?
        var writeWait: Bounds?
        var commit: Bounds?
    }
    struct Probe: Decodable { var signIns: Int }
    struct Floor: Decodable {
        struct Point: Decodable {
            var connections: Int
            var signInsPerSecond: Double
        }
        var points: [Point]
    }
    struct Point: Decodable { var accounts: Int }
    struct Database: Decodable {
        var database: String
        var floors: [Floor]
        var commitProbes: [Probe]
        var biometricSweep: [Load]
        var halfLoad: Load
        var password: Load
        var accessTokens: Load
        var growth: [Point]
        var serverPeakResidentBytes: Int
    }
    var limits: Limits
    var databases: [Database]
}
