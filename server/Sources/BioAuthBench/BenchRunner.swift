import BioAuthProtocol
import BioAuthServer
import BioAuthTesting
import Foundation
import Logging

/// Runs the whole benchmark: the machine's limits, then on each database the floor and the
/// commit probe, the sweep, the half-load latency, password sign-in and the growth runs, then the
/// floor and the probe again.
package struct BenchRunner: Sendable {
    let options: BenchOptions
    let progress = ProgressLine()
    private let logger: Logger
    let relyingParty = "localhost"

    /// A runner for `options`.
    package init(options: BenchOptions) {
        self.options = options
        var logger = Logger(label: "bioauth-bench")
        logger.logLevel = .warning
        self.logger = logger
    }

    /// Runs everything and returns the figures.
    package func run(command: String) async throws -> BenchReport {
        let started = WireJSON.formatTimestamp(Date())
        progress.note("measuring P-256 verification and password-hash rates on \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let limits = CPULimits(
            p256VerificationsPerSecond: try await CryptoLimit.p256VerificationsPerSecond(duration: options.probeDuration),
            passwordVerificationsPerSecond: try await PasswordHashProbe.verificationsPerSecond(
                cost: options.passwordCost,
                duration: options.probeDuration * 2
            ),
            passwordCost: options.passwordCost
        )
        var databases: [DatabaseReport] = []
        for database in options.databases {
            databases.append(try await run(on: database, limits: limits))
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return BenchReport(
            machine: .current(dataDirectory: options.dataDirectory),
            command: command,
            date: started,
            build: build,
            limits: limits,
            databases: databases
        )
    }

    private func run(on database: BenchOptions.Database, limits: CPULimits) async throws -> DatabaseReport {
        let name = database.name
        var floors = [try await floor(on: database, label: "before the loads")]
        var probes = [try await commitRate(on: database, label: "before the loads")]

        var sweep: [LoadResult] = []
        var halfLoad: LoadResult?
        var password: LoadResult?
        var accessTokens: LoadResult?
        var confirmations: LoadResult?
        var growth: [GrowthPoint] = []
        var best: LoadResult?
        for accounts in options.growth {
            let point = try await withScratchDatabase(database, "accounts-\(accounts)") { location -> GrowthPoint in
                let seedSeconds = try await seed(location, accounts: accounts, label: "[\(name)] seeding \(accounts) accounts")
                let bank = try await BenchmarkDatabase.with(location, logger: logger) { try await $0.serviceCredential() }
                let server = try await ServerProcess.start(database: location, arguments: serverArguments(for: database))
                do {
                    let enrolled = try await enroll(server)
                    let load = LoadGenerator(server: server, warmup: options.warmup, duration: options.duration, progress: progress)
                    let signIn = biometricSignIn(enrolled.devices)
                    if best == nil {
                        sweep = try await biometricSweep(load, name: name, signIn)
                        best = sweep.max { $0.throughput < $1.throughput }
                    }
                    guard let best else { throw BenchFailure("no sweep ran") }
                    let rate = options.openLoopRate ?? (sweep.first { $0.connections == best.connections }?.throughput ?? best.throughput) / 2
                    let half = try await load.openLoop(
                        rate: max(rate, 1),
                        connections: options.concurrency.max() ?? 64,
                        label: "[\(name)] biometric at \(Int(rate))/s, \(accounts) accounts",
                        signIn
                    )
                    let saturatedLabel = "[\(name)] biometric saturated, \(accounts) accounts"
                    let saturated = try await load.closedLoop(connections: best.connections, label: saturatedLabel, signIn)
                    if halfLoad == nil {
                        halfLoad = half
                        password = try await passwordLoad(server, name: name, accounts: enrolled.accounts)
                        accessTokens = try await accessTokenLoad(load, server, name: name, accounts: enrolled.accounts, connections: best.connections)
                        let confirm = confirmation(enrolled.devices, credential: bank)
                        confirmations = try await load.closedLoop(connections: best.connections, label: "[\(name)] payments confirmed", confirm)
                    }
                    let peak = server.peakResidentBytes
                    await server.stop()
                    return GrowthPoint(
                        accounts: accounts,
                        seedSeconds: seedSeconds,
                        halfLoad: half,
                        saturated: saturated,
                        serverPeakResidentBytes: peak
                    )
                } catch {
                    await server.stop()
                    throw error
                }
            }
            growth.append(point)
        }
        guard let best, let halfLoad, let password, let first = growth.first, let last = growth.last else {
            throw BenchFailure("the growth list is empty")
        }
        probes.append(try await commitRate(on: database, label: "after the loads"))
        floors.append(try await floor(on: database, label: "after the loads"))
        let instructions = options.instructionSignIns > 0 ? try await countInstructions(on: database) : nil
        let (limit, limitedBy) = Self.limit(probes, limits)
        return DatabaseReport(
            database: name,
            floors: floors,
            commitProbes: probes,
            limit: limit,
            limitedBy: limitedBy,
            biometricSweep: sweep,
            biometricRatioToLimit: best.throughput / limit,
            halfLoad: halfLoad,
            password: password,
            passwordRatioToHashRate: password.throughput / limits.passwordVerificationsPerSecond,
            accessTokens: accessTokens,
            confirmations: confirmations,
            growth: growth,
            growthP50Ratio: last.halfLoad.latency.p50 / first.halfLoad.latency.p50,
            serverPeakResidentBytes: growth.map(\.serverPeakResidentBytes).max() ?? 0,
            instructions: instructions
        )
    }

    /// The lower of the commit rate and the P-256 verification rate, and which one it is. The
    /// disk's speed drifts during a run (a shared VM's more than most): the commit rate is the best
    /// the database showed.
    private static func limit(_ probes: [BenchmarkDatabase.CommitRate], _ limits: CPULimits) -> (Double, String) {
        let commitLimit = probes.map(\.signInsPerSecond).max() ?? 0
        let limitedBy = commitLimit <= limits.p256VerificationsPerSecond ? "database commits" : "P-256 verification"
        return (min(commitLimit, limits.p256VerificationsPerSecond), limitedBy)
    }

    // MARK: Parts

    /// The biometric sweep: a closed loop at each of the options' connection counts.
    private func biometricSweep(_ load: LoadGenerator, name: String, _ signIn: @escaping LoadGenerator.Operation) async throws -> [LoadResult] {
        var results: [LoadResult] = []
        for connections in options.concurrency {
            let label = "[\(name)] biometric sign-in, \(connections) connections"
            results.append(try await load.closedLoop(connections: connections, label: label, signIn))
        }
        return results
    }

    /// Password sign-ins in a closed loop, for at least 3 s: a bcrypt verification takes tens of
    /// milliseconds, and a smoke run's second could otherwise end before any completes.
    private func passwordLoad(_ server: ServerProcess, name: String, accounts: [PasswordSignInRequest]) async throws -> LoadResult {
        let load = LoadGenerator(server: server, warmup: options.warmup, duration: max(options.duration, .seconds(3)), progress: progress)
        return try await load.closedLoop(connections: options.passwordConnections, label: "[\(name)] password sign-in", passwordSignIn(accounts))
    }

    /// Access tokens minted in a closed loop for sessions signed in once beforehand, one per
    /// account: minting reads the session and signs, and writes nothing.
    private func accessTokenLoad(
        _ load: LoadGenerator,
        _ server: ServerProcess,
        name: String,
        accounts: [PasswordSignInRequest],
        connections: Int
    ) async throws -> LoadResult {
        let tokens = try await HTTPConnection.with(host: server.host, port: server.port) { http in
            var tokens: [String] = []
            for account in accounts { tokens.append(try await http.exchange(.signInWithPassword, account, as: SignInResponse.self).sessionToken) }
            return tokens
        }
        return try await load.closedLoop(connections: connections, label: "[\(name)] access tokens minted") { connection, iteration, http in
            _ = try await http.exchange(
                .createAccessToken,
                nil,
                as: AccessTokenResponse.self,
                bearer: tokens[(connection + iteration) % tokens.count]
            )
        }
    }

    /// The floor: a sign-in's statements with no server code, from a minimal program over
    /// SQLite's C API (one writer, so one client) or from pgbench at each of the sweep's
    /// connection counts, on a scratch database with as many accounts as devices sign in.
    private func floor(on database: BenchOptions.Database, label: String) async throws -> FloorProbe {
        progress.note("[\(database.name)] measuring the floor (the sign-in's statements without the server), \(label)")
        let accounts = max(options.devices, 1)
        return try await withScratchDatabase(database, "floor") { location in
            let seeded = try await BenchmarkDatabase.with(location, maxConnections: 1, logger: logger) { db in
                try await db.seedFloorAccounts(count: accounts)
            }
            switch database {
            case .sqlite:
                let count = try await SQLiteFloor.signIns(path: location, accounts: seeded, duration: options.probeDuration)
                return FloorProbe(
                    method: "SQLite C API, one connection, one durable commit per sign-in",
                    points: [FloorPoint(connections: 1, signInsPerSecond: count.perSecond)]
                )
            case .postgres:
                var points: [FloorPoint] = []
                for connections in options.concurrency {
                    let rate = try await PostgresFloor.signIns(
                        url: location,
                        accounts: accounts,
                        clients: connections,
                        duration: options.probeDuration
                    )
                    points.append(FloorPoint(connections: connections, signInsPerSecond: rate))
                }
                return FloorProbe(method: "pgbench -M prepared, the sign-in's statements as one script", points: points)
            }
        }
    }

    /// The database's rate for a sign-in's transactions alone, on a scratch database.
    private func commitRate(on database: BenchOptions.Database, label: String) async throws -> BenchmarkDatabase.CommitRate {
        progress.note("[\(database.name)] measuring the durable commit rate of sign-in transactions, \(label)")
        return try await withScratchDatabase(database, "probe") { location in
            try await BenchmarkDatabase.with(location, maxConnections: options.postgresConnections, logger: logger) { db in
                // As many workers as the sweep's most connections: with fewer, SQLite's thread
                // sat idle between transactions and the loads beat their "limit".
                try await db.signInCommitRate(
                    workers: max(options.postgresConnections, options.concurrency.max() ?? 1),
                    duration: options.probeDuration
                )
            }
        }
    }

    func serverArguments(for database: BenchOptions.Database) -> [String] {
        [
            // Limits meant for one client address would cap a benchmark from one address.
            "--requests-per-minute", "1000000",
            "--challenges-per-minute", "10000",
            "--max-connections-per-address", "10000",
            "--hashes-per-address", "64",
            "--password-cost", String(options.passwordCost),
            "--database-connections", String(options.postgresConnections),
            "--relying-party", relyingParty,
        ]
    }

    /// Seeds `accounts` accounts and lets the database settle; returns the seeding's seconds.
    func seed(_ location: String, accounts: Int, label: String) async throws -> Double {
        let seconds = try await BenchmarkDatabase.with(location, maxConnections: options.postgresConnections, logger: logger) { db in
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let added = Counter()
                progress.begin(label) { added.value }
                defer { progress.end() }
                try await db.seed(accounts: accounts) { added.value = $0 }
            }
            let seconds = start.duration(to: clock.now).timeInterval
            progress.note("\(label): letting the database settle")
            try await db.settle()
            return seconds
        }
        // Also the pages the kernel still holds for the database files: written back now, not
        // during the measurement.
        sync()
        return seconds
    }

    /// Accounts signed up over HTTP with a known password, each registering up to eight devices.
    func enroll(_ server: ServerProcess) async throws -> (devices: [BenchDevice], accounts: [PasswordSignInRequest]) {
        let perAccount = 8
        let accountCount = max((options.devices + perAccount - 1) / perAccount, options.passwordConnections)
        let tag = UUID().uuidString.prefix(8).lowercased()
        progress.note("enrolling \(options.devices) devices on \(accountCount) accounts")
        return try await withThrowingTaskGroup(of: ([BenchDevice], PasswordSignInRequest).self) { group in
            for index in 0..<accountCount {
                let devices = max(0, min(perAccount, options.devices - index * perAccount))
                group.addTask { [relyingParty] in
                    try await HTTPConnection.with(host: server.host, port: server.port) { http in
                        let phone = PhoneConnection(http: http, relyingPartyID: relyingParty)
                        let account = PasswordSignInRequest(username: "bench-\(tag)-\(index)", password: "bench password \(index) \(tag)")
                        try await phone.signUp(account.username, password: account.password)
                        let signedIn = try await phone.signIn(account.username, password: account.password)
                        var registered: [BenchDevice] = []
                        for _ in 0..<devices {
                            registered.append(try await BenchDevice.register(over: phone, signedIn: signedIn))
                        }
                        return (registered, account)
                    }
                }
            }
            var devices: [BenchDevice] = []
            var accounts: [PasswordSignInRequest] = []
            for try await (registered, account) in group {
                devices += registered
                accounts.append(account)
            }
            return (devices, accounts)
        }
    }

    /// Each connection steps through all the devices (a different one each time), so that sign-ins
    /// spread evenly and every device stays below the per-registration challenge limit.
    func biometricSignIn(_ devices: [BenchDevice]) -> LoadGenerator.Operation {
        let relyingParty = self.relyingParty
        return { connection, iteration, http in
            let device = devices[(connection + iteration * 7_919) % devices.count]
            try await device.signIn(over: PhoneConnection(http: http, relyingPartyID: relyingParty))
        }
    }

    /// Each connection steps through the devices as ``biometricSignIn(_:)`` does; each step is a
    /// payment the bank's backend asks for with `credential` and the device approves.
    func confirmation(_ devices: [BenchDevice], credential: String) -> LoadGenerator.Operation {
        let relyingParty = self.relyingParty
        return { connection, iteration, http in
            let device = devices[(connection + iteration * 7_919) % devices.count]
            try await device.confirm(over: PhoneConnection(http: http, relyingPartyID: relyingParty), credential: credential)
        }
    }

    private func passwordSignIn(_ accounts: [PasswordSignInRequest]) -> LoadGenerator.Operation {
        { connection, iteration, http in
            _ = try await http.exchange(.signInWithPassword, accounts[(connection + iteration) % accounts.count], as: SignInResponse.self)
        }
    }

    /// Runs `body` with a new, empty database location and removes the database afterwards.
    func withScratchDatabase<T: Sendable>(
        _ database: BenchOptions.Database,
        _ name: String,
        _ body: (String) async throws -> T
    ) async throws -> T {
        switch database {
        case .sqlite:
            let path = URL(fileURLWithPath: options.dataDirectory)
                .appendingPathComponent("bioauth-bench-\(getpid())-\(name).sqlite").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            return try await body(path)
        case .postgres(let adminURL):
            let scratch = "bioauth_bench_\(getpid())_\(name.replacingOccurrences(of: "-", with: "_"))"
            return try await ScratchDatabase.with(scratch, on: adminURL, logger: logger, body)
        }
    }
}

/// The benchmark could not go on.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A number one task writes and the progress line reads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
