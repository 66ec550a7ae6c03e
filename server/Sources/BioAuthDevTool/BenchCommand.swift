import ArgumentParser
import BioAuthBench
import Foundation

/// `bioauth-dev bench`: sign-in throughput, latency and memory against the machine's limits.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure sign-in throughput, latency and server memory against this machine's limits.",
        discussion: """
            Starts `bioauth serve` on loopback for each database, drives it with many simulated devices, \
            and prints every throughput also as a ratio to the floor measured in the same run: a sign-in's \
            statements with no server code (a minimal program over SQLite's C API; pgbench for PostgreSQL), \
            and as a fraction of the lower of two limits: P-256 verifications per second on all cores, and \
            the commit rate of the server's sign-in transactions without HTTP. Build with -c release; \
            docs/BENCHMARKS.md explains the figures.
            """
    )

    @Option(
        name: .customLong("postgres-url"),
        help:
            "Also measure PostgreSQL: a URL whose user may create databases (throwaway ones are created and dropped). [env: BIOAUTH_BENCH_POSTGRES_URL]"
    )
    var postgresURL: String?

    @Flag(name: .customLong("no-sqlite"), help: "Skip SQLite (measure PostgreSQL only).")
    var noSQLite = false

    @Option(
        name: .customLong("data-dir"),
        help: "Directory for the SQLite files; it must be on the disk to measure, not a tmpfs. (default: the current directory)"
    )
    var dataDirectory: String?

    @Option(help: "Connection counts of the biometric sweep, comma-separated. (default: 1,2,4,8,16,32,64)")
    var concurrency: String?

    @Option(help: "Measured seconds per load. (default: 5)")
    var duration: Double?

    @Option(help: "Unmeasured warm-up seconds before each load. (default: 1)")
    var warmup: Double?

    @Option(help: "Seeded account counts of the growth runs, comma-separated; the first carries the sweep. (default: 1000,1000000)")
    var growth: String?

    @Option(help: "Open-loop rate of the growth runs, sign-ins per second, for comparing builds. (default: half the sweep's best)")
    var rate: Double?

    @Option(help: "Simulated devices. (default: 64)")
    var devices: Int?

    @Option(name: .customLong("password-cost"), help: "bcrypt cost of the measured server, 10...16. (default: 12)")
    var passwordCost: Int?

    @Option(help: "Also write the figures as JSON to this file (input of scripts/plot-bench.py).")
    var json: String?

    @Flag(help: "A run of a few seconds that exercises every part; its figures mean nothing.")
    var smoke = false

    @Option(
        help: """
            Also count the server's instructions per biometric sign-in under valgrind's callgrind, over this many sign-ins at one \
            connection (scripts/bench-instructions sets up valgrind). (default: 0, not counted)
            """
    )
    var instructions: Int?

    @Flag(name: .customLong("instructions-only"), help: "With --instructions: only the count, no loads.")
    var instructionsOnly = false

    @Option(name: .customLong("profile-dir"), help: "With --instructions: the folder for callgrind's dumps. (default: the temporary folder)")
    var profileDirectory: String?

    @Option(
        name: .customLong("faults"),
        help: ArgumentHelp(
            "Instead of the benchmark: a mixed load against a server on this database (a SQLite file or a postgres:// URL) while --break and --heal run in turns for --duration seconds (default 180); prints what was answered, refused, failed and lost, and fails unless nothing failed or was lost.",
            valueName: "database"
        )
    )
    var faultDatabase: String?

    @Option(name: .customLong("break"), help: "With --faults: a shell command that breaks the database (stops PostgreSQL, fills the disk).")
    var breakCommand: String?

    @Option(name: .customLong("heal"), help: "With --faults: a shell command that heals it again.")
    var healCommand: String?

    @Option(name: .customLong("fault-every"), help: "With --faults: seconds from one fault to the next. (default: 30)")
    var faultEvery: Double?

    @Option(name: .customLong("fault-length"), help: "With --faults: seconds each fault lasts. (default: 8)")
    var faultLength: Double?

    func run() async throws {
        if let faultDatabase { return try await runFaults(on: faultDatabase) }
        var options = smoke ? BenchOptions.smoke : BenchOptions()
        let postgres = postgresURL ?? ProcessInfo.processInfo.environment["BIOAUTH_BENCH_POSTGRES_URL"]
        options.databases = (noSQLite ? [] : [.sqlite]) + (postgres.map { [.postgres(adminURL: $0)] } ?? [])
        guard !options.databases.isEmpty else { throw ValidationError("--no-sqlite needs --postgres-url.") }
        if let dataDirectory { options.dataDirectory = dataDirectory }
        if let concurrency { options.concurrency = try Self.counts(concurrency, "--concurrency", 1...4_096) }
        if let growth { options.growth = try Self.counts(growth, "--growth", 1...100_000_000) }
        if let duration {
            guard duration > 0 else { throw ValidationError("--duration must be positive.") }
            options.duration = .milliseconds(Int(duration * 1_000))
        }
        if let warmup {
            guard warmup >= 0 else { throw ValidationError("--warmup must not be negative.") }
            options.warmup = .milliseconds(Int(warmup * 1_000))
        }
        if let rate {
            guard rate > 0 else { throw ValidationError("--rate must be positive.") }
            options.openLoopRate = rate
        }
        if let devices {
            guard (1...10_000).contains(devices) else { throw ValidationError("--devices must be 1...10000.") }
            options.devices = devices
        }
        if let passwordCost {
            guard (10...16).contains(passwordCost) else { throw ValidationError("--password-cost must be 10...16.") }
            options.passwordCost = passwordCost
        }
        if let instructions {
            guard (1...100_000).contains(instructions) else { throw ValidationError("--instructions must be 1...100000.") }
            options.instructionSignIns = instructions
        }
        options.profileDirectory = profileDirectory
        if instructionsOnly {
            guard instructions != nil else { throw ValidationError("--instructions-only needs --instructions.") }
            let runner = BenchRunner(options: options)
            for database in options.databases {
                print("[\(database.name)] " + (try await runner.countInstructions(on: database)).summary)
            }
            return
        }

        let report = try await BenchRunner(options: options).run(command: (["bioauth"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
        print(report.summary, terminator: "")
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: json))
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }

    private func runFaults(on database: String) async throws {
        guard let breakCommand, let healCommand else { throw ValidationError("--faults needs --break and --heal.") }
        var options = FaultLoad.Options(database: database, breakCommand: breakCommand, healCommand: healCommand)
        if let duration { options.duration = .milliseconds(Int(duration * 1_000)) }
        if let faultEvery { options.every = .milliseconds(Int(faultEvery * 1_000)) }
        if let faultLength { options.outage = .milliseconds(Int(faultLength * 1_000)) }
        if let passwordCost { options.passwordCost = passwordCost }
        guard options.outage > .zero, options.every > options.outage, options.duration >= options.every + options.outage + .seconds(10) else {
            throw ValidationError(
                "--faults needs 0 < --fault-length < --fault-every, and --duration of at least --fault-every + --fault-length + 10."
            )
        }
        let report = try await FaultLoad(options: options).run()
        print(report, terminator: "")
        if !report.isClean { throw ExitCode(1) }
    }

    private static func counts(_ text: String, _ flag: String, _ range: ClosedRange<Int>) throws -> [Int] {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ $0.map(range.contains) ?? false }) else {
            throw ValidationError("\(flag) takes comma-separated numbers in \(range.lowerBound)...\(range.upperBound).")
        }
        return numbers.compactMap { $0 }
    }
}
