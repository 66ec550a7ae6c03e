import Foundation

/// What `bioauth-dev bench` measures and for how long.
package struct BenchOptions: Sendable {
    /// A database to measure on.
    package enum Database: Sendable, Equatable {
        /// SQLite files in ``BenchOptions/dataDirectory``.
        case sqlite
        /// Throwaway databases created through this administrative URL and dropped afterwards.
        case postgres(adminURL: String)

        /// `sqlite` or `postgres`.
        package var name: String {
            switch self {
            case .sqlite: "sqlite"
            case .postgres: "postgres"
            }
        }
    }

    /// The databases, measured one after the other.
    package var databases: [Database] = [.sqlite]
    /// Where SQLite files go. It must be on the disk being measured (not a tmpfs).
    package var dataDirectory: String = FileManager.default.currentDirectoryPath
    /// Connection counts of the closed-loop sweep of biometric sign-in.
    package var concurrency: [Int] = [1, 2, 4, 8, 16, 32, 64]
    /// Unmeasured time at the start of each load.
    package var warmup: Duration = .seconds(1)
    /// Measured time of each load.
    package var duration: Duration = .seconds(5)
    /// How long each limit probe runs.
    package var probeDuration: Duration = .seconds(3)
    /// Seeded accounts (each with a registration and an expired session) of the growth runs; the
    /// first also carries the full sweep.
    package var growth: [Int] = [1_000, 1_000_000]
    /// The open-loop rate of the growth runs, sign-ins per second; `nil` for half the sweep's best.
    /// A fixed rate makes two builds' CPU per sign-in and latency comparable across runs.
    package var openLoopRate: Double?
    /// Simulated devices (registrations) signing in; the connections share them.
    package var devices: Int = 64
    /// bcrypt cost of the measured server (production: 12).
    package var passwordCost: Int = 12
    /// Connections of the password sign-in load.
    package var passwordConnections: Int = 4
    /// Most PostgreSQL connections of the server and of the commit probe.
    package var postgresConnections: Int = 20
    /// Biometric sign-ins counted under callgrind per database (``InstructionCount``); 0: none.
    package var instructionSignIns: Int = 0
    /// Where callgrind's dumps go; `nil` for the temporary folder.
    package var profileDirectory: String?

    /// The defaults: the full benchmark, about ten minutes per database.
    package init() {}

    /// A run of a few seconds that exercises every part, for the test suite: its figures mean nothing.
    package static var smoke: BenchOptions {
        var options = BenchOptions()
        options.concurrency = [1, 4]
        options.warmup = .milliseconds(100)
        options.duration = .seconds(1)
        options.probeDuration = .milliseconds(300)
        options.growth = [10, 100]
        options.devices = 8
        options.passwordCost = 10
        options.passwordConnections = 2
        return options
    }
}
