import BioAuthServer
import Foundation
import Logging
import ServiceLifecycle

/// A BioAuth server inside the demo's process, on a loopback port and a SQLite file in a fresh
/// temporary folder that ``stop()`` deletes.
package final class InProcessServer: Sendable {
    /// The relying-party id the in-process server is configured with.
    package static let relyingPartyID = "demo.bioauth.example"

    /// Where the phone reaches it.
    package let baseURL: URL
    /// The SQLite file (the stolen-database attack copies it).
    package let databasePath: String
    /// How long a challenge lives.
    package let challengeTTL: Duration
    let clock: DemoClock
    private let folder: URL
    private let server: AuthServer
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: URL, databasePath: String, challengeTTL: Duration, clock: DemoClock, folder: URL,
                 server: AuthServer, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.databasePath = databasePath
        self.challengeTTL = challengeTTL
        self.clock = clock
        self.folder = folder
        self.server = server
        self.group = group
        self.task = task
    }

    /// Starts a server on a free port over a new database.
    ///
    /// - Parameter passwordCost: bcrypt cost (`bioauth serve` uses 12; the demo 10, the floor
    ///   `serve` accepts, to stay quick).
    package static func start(passwordCost: UInt8 = 10) async throws -> InProcessServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clock = DemoClock()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.databasePath = folder.appendingPathComponent("bioauth.sqlite").path
        configuration.relyingPartyID = relyingPartyID
        configuration.passwordHashCost = passwordCost
        configuration.useClock { clock.now() }
        let logger = Logger(label: "bioauth-demo", factory: { _ in SwiftLogNoOpLogHandler() })
        let server: AuthServer
        do {
            server = try await AuthServer.open(configuration: configuration, logger: logger)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = server.application { _, port in continuation.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [.init(service: application)], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let failure: any Error = await { do { try await task.value; return CancellationError() } catch { return error } }()
            try? await server.close()
            try? FileManager.default.removeItem(at: folder)
            throw failure
        }
        return InProcessServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, databasePath: configuration.databasePath,
            challengeTTL: configuration.challengeTTL, clock: clock, folder: folder, server: server, group: group, task: task)
    }

    /// Moves the server's clock forward.
    package func advanceClock(by seconds: TimeInterval) {
        clock.advance(by: seconds)
    }

    /// Stops serving, closes the database and deletes its folder.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        try? await server.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
