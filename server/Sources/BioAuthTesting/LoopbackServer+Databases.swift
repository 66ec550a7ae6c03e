import BioAuthServer
import Foundation
import Logging
import X509

/// A loopback server over either database, for the client suites that hold a promise on both.
extension LoopbackServer {
    /// The database a server runs on.
    package enum Database: String, Sendable, CustomStringConvertible {
        /// A new SQLite file.
        case sqlite
        /// A new database on the PostgreSQL server in `BIOAUTH_TEST_POSTGRES_URL`.
        case postgres

        /// The name.
        package var description: String { rawValue }

        /// SQLite, and PostgreSQL when `BIOAUTH_TEST_POSTGRES_URL` names a server (`./scripts/test`
        /// always starts one).
        package static var available: [Database] {
            ProcessInfo.processInfo.environment["BIOAUTH_TEST_POSTGRES_URL", default: ""].isEmpty ? [.sqlite] : [.sqlite, .postgres]
        }
    }

    /// Runs `body` against a new server on `database` (see
    /// ``start(database:clock:time:pinKeys:appAttestRoots:logger:configure:)``), then stops it and
    /// removes its database, also when `body` throws.
    package static func run<T: Sendable>(
        on database: Database,
        appAttestRoots: [Certificate]? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (LoopbackServer) async throws -> T
    ) async throws -> T {
        switch database {
        case .sqlite:
            return try await start(appAttestRoots: appAttestRoots, configure: configure).serving(body)
        case .postgres:
            let url = ProcessInfo.processInfo.environment["BIOAUTH_TEST_POSTGRES_URL", default: ""]
            let name = "bioauth_client_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            let logger = Logger(label: "bioauth-test-admin", factory: { _ in SwiftLogNoOpLogHandler() })
            return try await ScratchDatabase.with(name, on: url, logger: logger) { location in
                try await start(database: location, pinKeys: ThrowawayPINKey.ring, appAttestRoots: appAttestRoots, configure: configure).serving(body)
            }
        }
    }
}
