import BioAuthProtocol
@testable import BioAuthServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

/// A real server on a loopback port over a fresh SQLite file, with a clock the test controls.
struct TestServer: Sendable {
    static let relyingPartyID = "bank.example"

    let api: APIClient
    let clock: ManualClock
    let databasePath: String
    let server: AuthServer

    /// Runs `body` against a new server; the database and its folder are removed afterwards.
    static func run<T: Sendable>(
        logger: Logger = Logger(label: "bioauth-test", factory: { _ in SwiftLogNoOpLogHandler() }),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.databasePath = folder.appendingPathComponent("bioauth.sqlite").path
        configuration.relyingPartyID = relyingPartyID
        configuration.passwordHashCost = 4  // the floor bcrypt allows: tests stay fast
        configuration.useClock { clock.now }
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

    /// Every row of the database now.
    func snapshot() async throws -> DatabaseSnapshot {
        try await DatabaseSnapshot.read(path: databasePath)
    }
}
