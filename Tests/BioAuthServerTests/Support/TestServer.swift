import BioAuthProtocol
@testable import BioAuthServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

/// A real server on a loopback port over a fresh database (SQLite or PostgreSQL, see
/// ``TestDatabase``), with a clock the test controls.
/// The PIN keys of every test server: one fixed key, so servers in one test agree.
let testPINKeys = PINKeyRing(keys: [Data(repeating: 0x5a, count: 32)])

struct TestServer: Sendable {
    static let relyingPartyID = "bank.example"

    let api: APIClient
    let clock: ManualClock
    let databasePath: String
    let server: AuthServer

    /// Runs `body` against a new server over a new database of the current kind, removed afterwards
    /// (unless `configure` names a database of its own).
    @discardableResult
    static func run<T: Sendable>(
        database kind: TestDatabase = .current,
        logger: Logger = Logger(label: "bioauth-test", factory: { _ in SwiftLogNoOpLogHandler() }),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        try await kind.withFreshDatabase { location in
            try await run(location: location, logger: logger, configure: configure, body)
        }
    }

    private static func run<T: Sendable>(
        location: String, logger: Logger, configure: (inout ServerConfiguration) -> Void,
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.databasePath = location
        configuration.databaseMaxConnections = 8
        configuration.relyingPartyID = relyingPartyID
        configuration.passwordHashCost = 4  // the floor bcrypt allows: tests stay fast
        configuration.useClock { clock.now }
        configuration.pinKeyRing = testPINKeys
        configure(&configuration)
        let databasePath = configuration.databasePath
        let server = try await AuthServer.open(configuration: configuration, logger: logger)
        do {
            let result = try await server.application().test(.live) { client in
                try await body(TestServer(api: APIClient(client: client), clock: clock, databasePath: databasePath, server: server))
            }
            try await server.close()
            return result
        } catch {
            try? await server.close()
            throw error
        }
    }

    /// The operator's account actions (`bioauth admin`) on this server's database.
    var administration: AccountAdministration {
        AccountAdministration(database: server.database, hasher: PasswordHasher(cost: server.configuration.passwordHashCost),
                              time: server.configuration.timeSource)
    }

    /// Every row of the database now.
    func snapshot() async throws -> DatabaseSnapshot {
        if PostgresDatabaseProvider.isURL(databasePath) {
            return try await DatabaseSnapshot.read(postgres: server.database)
        }
        return try await DatabaseSnapshot.read(path: databasePath)
    }
}
