import BioAuthTesting
import Foundation
import Logging

@testable import BioAuthServer

/// The database the server suite runs against: SQLite unless `BIOAUTH_TEST_DATABASE=postgres`
/// (then the PostgreSQL server in `BIOAUTH_TEST_POSTGRES_URL`, which `./scripts/test` starts).
/// `./scripts/test` runs the server suite once for each.
enum TestDatabase: String, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    static let current: TestDatabase =
        ProcessInfo.processInfo.environment["BIOAUTH_TEST_DATABASE"] == "postgres" ? .postgres : .sqlite

    /// The PostgreSQL server tests may create databases on (a role with CREATEDB).
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["BIOAUTH_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    var description: String { rawValue }

    struct NoPostgresError: Error, CustomStringConvertible {
        var description: String { "BIOAUTH_TEST_POSTGRES_URL is not set; run ./scripts/test, which starts a PostgreSQL" }
    }

    /// How many test databases may be open at once. Swift Testing starts every test at once; a
    /// server over each holds about ten file descriptors, and past about 1,350 open descriptors
    /// Foundation's `Process.run()` (which the `bioauth serve` tests call) can crash on Linux: it
    /// reads 256 bytes from each `/proc/self/fd` entry and so past the end of glibc's full buffer
    /// (swift-corelibs-foundation#5472).
    private static let openDatabases = AsyncGate(width: 16)

    /// Runs `body` with the location (`--database` value) of a new, empty database of this kind,
    /// removed afterwards: a SQLite file in a new folder, or a new PostgreSQL database. Waits while
    /// ``openDatabases`` are in use; `body` must not ask for another one.
    func withFreshDatabase<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        try await Self.openDatabases.withGate {
            try await withNewDatabase(body)
        }
    }

    private func withNewDatabase<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(folder.appendingPathComponent("bioauth.sqlite").path)
        case .postgres:
            guard let url = Self.postgresURL else { throw NoPostgresError() }
            let name = "bioauth_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            return try await ScratchDatabase.with(
                name,
                on: url,
                logger: Logger(label: "bioauth-test-admin", factory: { _ in SwiftLogNoOpLogHandler() }),
                body
            )
        }
    }
}
