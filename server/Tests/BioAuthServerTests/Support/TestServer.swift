import BioAuthProtocol
import BioAuthTesting
import Foundation
import HummingbirdTesting
import Logging
import X509

@testable import BioAuthServer

/// A ``LoopbackServer`` over a fresh database of the suite's kind (SQLite or PostgreSQL, see
/// ``TestDatabase``), with a frozen clock the test moves and ``ThrowawayPINKey`` as its PIN key,
/// reached through the contract-checking ``APIClient``.
struct TestServer: Sendable {
    let api: APIClient
    let loopback: LoopbackServer

    /// The server's clock.
    var clock: ServerClock { loopback.clock }
    /// The server.
    var server: AuthServer { loopback.server }
    /// Where its data lives: a SQLite path or a PostgreSQL URL.
    var databasePath: String { loopback.configuration.databasePath }

    /// Runs `body` against a new server over the database at `location` (a SQLite path or a
    /// PostgreSQL URL), which stays; without one, over a new database of the current kind, removed
    /// afterwards. `time` replaces the frozen clock; `pinKeys` the throwaway PIN key.
    @discardableResult
    static func run<T: Sendable>(
        database kind: TestDatabase = .current,
        at location: String? = nil,
        logger: Logger = Logger(label: "bioauth-test", factory: { _ in SwiftLogNoOpLogHandler() }),
        time: TimeSource? = nil,
        pinKeys: PINKeyRing = ThrowawayPINKey.ring,
        appAttestRoots: [Certificate]? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        func serve(_ location: String) async throws -> T {
            try await LoopbackServer.start(
                database: location,
                time: time,
                pinKeys: pinKeys,
                appAttestRoots: appAttestRoots,
                logger: logger,
                configure: configure
            ).serving { loopback in
                try await TestClient.withClient(host: "127.0.0.1", port: loopback.port) { client in
                    try await body(TestServer(api: APIClient(client: client), loopback: loopback))
                }
            }
        }
        if let location { return try await serve(location) }
        return try await kind.withFreshDatabase(serve)
    }

    /// The operator's account actions (`bioauth admin`) on this server's database.
    var administration: AccountAdministration { server.administration }

    /// Every row of the database now.
    func snapshot() async throws -> DatabaseSnapshot {
        if DatabaseLocation.isPostgres(databasePath) {
            return try await DatabaseSnapshot.read(postgres: server.database)
        }
        return try await DatabaseSnapshot.read(path: databasePath)
    }
}
