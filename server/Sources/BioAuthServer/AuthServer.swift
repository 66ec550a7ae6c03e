import BioAuthAttestation
import BioAuthProtocol
import BioAuthWebAuthn
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import X509

/// A BioAuth server: its open, migrated database and the HTTP application over it.
///
/// The database's life is explicit: ``run(onServerRunning:)`` closes it after the HTTP server has
/// drained, and also when the server fails to start (a port in use), so no path leaves it open.
package struct AuthServer: Sendable {
    /// What the server was told.
    package let configuration: ServerConfiguration
    /// The database it serves.
    package let database: any DatabaseProvider
    /// Its clock: the system's, but in tests.
    let time: TimeSource
    /// The PIN keys, the passkey relying party and the other policies its services were built with.
    let policies: ServerPolicies
    /// The keys PIN hashes are made with.
    var pinKeys: PINKeyRing { policies.pinKeys }
    /// The passkey relying party: id, origins, requirements, attestation roots.
    var relyingParty: RelyingParty { policies.relyingParty }
    let logger: Logger
    /// This server's metrics, served at `GET /metrics` by ``metricsApplication(onServerRunning:)``.
    let metrics: ServerMetrics
    /// Every service, built once (the composition root).
    let services: ServerServices
    /// Open client connections at most (``ServerConfiguration/maxConnections``, fitted to the
    /// descriptor limit at start).
    let connectionCap: Int

    /// Opens (creating and migrating as needed) the database the configuration names, once every
    /// other setting (the PIN key, the passkey relying party and its trust roots) has been checked:
    /// a setting that cannot work touches no database.
    ///
    /// - Parameters:
    ///   - time: The clock; tests give one they move.
    ///   - pinKeys: PIN keys given directly instead of the configured key file; tests give throwaway ones.
    ///   - keyAttestation: The evidence policy instead of the configured one; tests give one over
    ///     their own App Attest root.
    package static func open(
        configuration: ServerConfiguration,
        time: TimeSource = .system,
        pinKeys given: PINKeyRing? = nil,
        keyAttestation givenPolicy: KeyAttestationPolicy? = nil,
        logger: Logger = Logger(label: "bioauth")
    ) async throws -> AuthServer {
        let postgres = DatabaseLocation.isPostgres(configuration.databasePath)
        if !postgres { try SQLiteDatabaseProvider.checkLocation(configuration.databasePath) }
        let descriptors = DescriptorBudget(
            limit: DescriptorBudget.raisedToHardLimit(),
            reserved: DescriptorBudget.reserve(databaseConnections: postgres ? configuration.databaseMaxConnections : 16)
        )
        let connectionCap = try descriptors.connectionCap(configured: configuration.maxConnections)
        let policies = try ServerPolicies(configuration: configuration, pinKeys: given, keyAttestation: givenPolicy, logger: logger)
        let metrics = ServerMetrics()
        let database = try await openDatabase(configuration, now: time.now(), metrics: metrics.database, logger: logger)
        let services = ServerServices(
            configuration: configuration,
            database: database,
            time: time,
            policies: policies,
            metrics: metrics,
            logger: logger
        )
        do {
            // The first signing key, when there is none yet (every instance tries; one stores it).
            try await services.accessTokens.keys.rotate()
        } catch {
            try? await database.shutdown()
            throw error
        }
        return AuthServer(
            configuration: configuration,
            database: database,
            time: time,
            policies: policies,
            logger: logger,
            metrics: metrics,
            services: services,
            connectionCap: connectionCap
        )
    }

    /// Opens the database for an operator's account actions (`bioauth admin`), creating and
    /// migrating it as needed; it needs no PIN key.
    package static func administration(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "bioauth")
    ) async throws -> AccountAdministration {
        let database = try await openDatabase(configuration, now: TimeSource.system.now(), metrics: nil, logger: logger)
        return AccountAdministration(
            configuration: configuration,
            core: AccountCore(configuration: configuration, database: database, time: .system, metrics: ServerMetrics())
        )
    }

    /// Opens the database for the operator's signing-key actions (`bioauth admin signing-keys`),
    /// creating and migrating it as needed, with the key file (or PIN key file) that seals the keys.
    package static func signingKeyAdministration(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "bioauth")
    ) async throws -> SigningKeyAdministration {
        let wrap = try ServerPolicies.signingKeyWrap(configuration, pinKeys: try ServerPolicies.pinKeyRing(configuration, logger: logger))
        let database = try await openDatabase(configuration, now: TimeSource.system.now(), metrics: nil, logger: logger)
        let keys = SigningKeyStore(
            database: database,
            wrap: wrap,
            time: .system,
            algorithm: configuration.accessTokenAlgorithm,
            rotation: configuration.signingKeyRotation,
            logger: logger
        )
        return SigningKeyAdministration(keys: keys)
    }

    /// Opens the database for the operator's service credentials (`bioauth admin
    /// service-credentials`), creating and migrating it as needed.
    package static func serviceCredentialAdministration(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "bioauth")
    ) async throws -> ServiceCredentialAdministration {
        let database = try await openDatabase(configuration, now: TimeSource.system.now(), metrics: nil, logger: logger)
        return ServiceCredentialAdministration(database: database, time: .system)
    }

    /// The operator's service-credential actions on this server's open database.
    package var serviceCredentialAdministration: ServiceCredentialAdministration {
        ServiceCredentialAdministration(database: database, time: time)
    }

    /// The operator's signing-key actions on this server's open database.
    package var signingKeyAdministration: SigningKeyAdministration { SigningKeyAdministration(keys: services.accessTokens.keys) }

    /// The operator's account actions (`bioauth admin`) on this server's open database.
    package var administration: AccountAdministration { services.administration }

    private static func openDatabase(
        _ configuration: ServerConfiguration,
        now: Date,
        metrics: DatabaseMetrics?,
        logger: Logger
    ) async throws
        -> any DatabaseProvider
    {
        let database: any DatabaseProvider
        if DatabaseLocation.isPostgres(configuration.databasePath) {
            database = try await PostgresDatabaseProvider.open(
                url: configuration.databasePath,
                maxConnections: configuration.databaseMaxConnections,
                connectionWait: configuration.databaseWait,
                metrics: metrics,
                logger: logger
            )
        } else {
            database = try await SQLiteDatabaseProvider.open(path: configuration.databasePath, metrics: metrics, logger: logger)
        }
        do {
            try await Migrator.migrate(database, now: now, logger: logger)
        } catch {
            try? await database.shutdown()
            throw error
        }
        return database
    }

    /// Counts the live sessions for the metrics gauge now (the server also does it at every purge).
    func refreshMetrics() async throws {
        metrics.setActiveSessions(try await services.housekeeping.liveSessions())
    }

    /// Removes expired challenges, long-ended sessions, stale pending registrations, idle failure
    /// counters and old audit events now (the server also does it every ``ServerConfiguration/purgeInterval``).
    @discardableResult
    func purge() async throws -> Housekeeping.Report {
        try await services.housekeeping.purge()
    }

    /// Serves the API and the metrics listener until SIGINT or SIGTERM, lets in-flight requests
    /// finish, then closes the database. Meanwhile the purge runs every
    /// ``ServerConfiguration/purgeInterval``. Both listeners are announced once both are bound; if
    /// either cannot start, neither runs and the error (``ListenerError``) names it.
    package func run(
        onServerRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in },
        onMetricsRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) async throws {
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: configuration.eventLoopCount)
        // Either listener ending (a port in use) shuts the other down gracefully, not by cancelling it.
        let announcement = ListenerAnnouncement(api: onServerRunning, metrics: onMetricsRunning)
        let services: [any Service] = [
            Listener(
                role: .api,
                host: configuration.host,
                port: configuration.port,
                application: application(onServerRunning: { await announcement.bound(.api, host: $0, port: $1) }, eventLoops: .shared(eventLoops))
            ),
            Listener(
                role: .metrics,
                host: configuration.metricsHost,
                port: configuration.metricsPort,
                application: metricsApplication(onServerRunning: { await announcement.bound(.metrics, host: $0, port: $1) })
            ),
        ]
        let listeners = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    ServiceGroupConfiguration.ServiceConfiguration(
                        service: $0,
                        successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup
                    )
                },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        let housekeeping = self.services.housekeeping
        let interval = configuration.purgeInterval
        let metrics = self.metrics
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await listeners.run() }
                group.addTask { await housekeeping.runPeriodically(every: interval, metrics: metrics) }
                try await group.next()  // the server: returns after a signal, throws when it cannot start
                group.cancelAll()
            }
        } catch {
            try? await eventLoops.shutdownGracefully()
            try? await close()
            throw error
        }
        try? await eventLoops.shutdownGracefully()
        try await close()
    }

    /// Closes the database.
    package func close() async throws {
        try await database.shutdown()
    }

    /// The biometric sign-in (the benchmark's probe drives it without HTTP).
    package var biometricService: BiometricService { services.biometrics }
}
