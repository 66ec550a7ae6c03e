import BioAuthAttestation
import BioAuthServer
import Foundation
import Logging
import ServiceLifecycle
import X509

/// A BioAuth server inside this process, on a free loopback port, over a database of its own,
/// with a clock its caller moves: what the tests, the Kit's tests and the demo run against.
package final class LoopbackServer: Sendable {
    /// The relying-party id a loopback server is configured with unless told otherwise.
    package static let relyingPartyID = "bank.example"

    /// Where clients reach it.
    package let baseURL: URL
    /// The port it listens on.
    package let port: Int
    /// The server, for what a test reads or runs beside HTTP (its database, the purge).
    package let server: AuthServer
    /// The clock the server reads.
    package let clock: ServerClock
    /// The server's configuration as started.
    package var configuration: ServerConfiguration { server.configuration }
    /// The folder of the SQLite file made for it, deleted by ``stop()``; `nil` when the caller
    /// named the database.
    private let folder: URL?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(baseURL: URL, port: Int, server: AuthServer, clock: ServerClock, folder: URL?, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.port = port
        self.server = server
        self.clock = clock
        self.folder = folder
        self.group = group
        self.task = task
    }

    /// Starts a server on a free loopback port.
    ///
    /// - Parameters:
    ///   - database: A SQLite path or PostgreSQL URL the caller owns; when `nil`, a new SQLite
    ///     file in a new temporary folder that ``stop()`` deletes.
    ///   - clock: The server's clock (frozen at now unless given).
    ///   - time: A clock other than `clock` (the system's, or one offset from it), for tests of
    ///     several instances.
    ///   - pinKeys: PIN keys instead of a key file beside the database.
    ///   - appAttestRoots: App Attest roots instead of Apple's (a test authority's).
    ///   - configure: Changes to the loopback defaults (relying party ``relyingPartyID``, bcrypt at
    ///     its floor of 4 so tests stay quick, eight database connections).
    package static func start(
        database: String? = nil,
        clock: ServerClock = .frozen(),
        time: TimeSource? = nil,
        pinKeys: PINKeyRing? = nil,
        appAttestRoots: [Certificate]? = nil,
        logger: Logger = Logger(label: "bioauth-loopback", factory: { _ in SwiftLogNoOpLogHandler() }),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LoopbackServer {
        let folder = database == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-\(UUID().uuidString)") : nil
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.databasePath = database ?? folder!.appendingPathComponent("bioauth.sqlite").path
        configuration.databaseMaxConnections = 8
        configuration.relyingPartyID = relyingPartyID
        configuration.passwordHashCost = 4
        configure(&configuration)
        let server: AuthServer
        do {
            var keyAttestation: KeyAttestationPolicy?
            if let appAttestRoots {
                keyAttestation = try ServerPolicies.keyAttestationPolicy(configuration)
                keyAttestation?.appAttest?.roots = appAttestRoots
            }
            server = try await AuthServer.open(
                configuration: configuration,
                time: time ?? TimeSource(now: { clock.now }),
                pinKeys: pinKeys,
                keyAttestation: keyAttestation,
                logger: logger
            )
        } catch {
            if let folder { try? FileManager.default.removeItem(at: folder) }
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
            // The application ended before it listened: its error says why.
            let failure: any Error = await {
                do {
                    try await task.value
                    return CancellationError()
                } catch { return error }
            }()
            try? await server.close()
            if let folder { try? FileManager.default.removeItem(at: folder) }
            throw failure
        }
        return LoopbackServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            port: port,
            server: server,
            clock: clock,
            folder: folder,
            group: group,
            task: task
        )
    }

    /// Runs `body` against a new server with the loopback defaults (see
    /// ``start(database:clock:time:pinKeys:appAttestRoots:logger:configure:)``) and stops it
    /// afterwards, also when `body` throws.
    package static func run<T: Sendable>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
        try await start().serving(body)
    }

    /// Runs `body` against this server, then stops it, also when `body` throws.
    package func serving<T: Sendable>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            try await stop()
            return result
        } catch {
            try? await stop()
            throw error
        }
    }

    /// Stops serving (in-flight requests finish), closes the database and deletes the folder it
    /// made for it.
    package func stop() async throws {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
        try await server.close()
    }
}
