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
    /// The keys PIN hashes are made with (the current one also keys passkey sign-in decoys and
    /// authentication challenges).
    let pinKeys: PINKeyRing
    /// The passkey relying party: id, origins, requirements, attestation roots.
    let relyingParty: RelyingParty
    private let logger: Logger
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
        let relyingParty = try relyingParty(configuration)
        let keyAttestation = try givenPolicy ?? keyAttestationPolicy(configuration)
        let pinKeys = try given ?? pinKeyRing(configuration, logger: logger)  // last: it may create the SQLite server's key file
        let metrics = ServerMetrics()
        let database = try await openDatabase(configuration, now: time.now(), metrics: metrics.database, logger: logger)
        let services = ServerServices(
            configuration: configuration,
            database: database,
            time: time,
            pinKeys: pinKeys,
            relyingParty: relyingParty,
            keyAttestation: keyAttestation,
            metrics: metrics,
            hashing: hashingBudget(configuration),
            challengeRate: ChallengeRateLimit(perMinute: configuration.challengesPerRegistrationPerMinute),
            logger: logger
        )
        return AuthServer(
            configuration: configuration,
            database: database,
            time: time,
            pinKeys: pinKeys,
            relyingParty: relyingParty,
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

    /// The bound on hashes the configuration sets: a worker per core (NIO's thread pool has as many).
    static func hashingBudget(_ configuration: ServerConfiguration) -> HashingBudget {
        let cores = System.coreCount
        return HashingBudget(
            workers: cores,
            queueLimit: configuration.hashQueue == 0 ? 4 * cores : configuration.hashQueue,
            perClient: configuration.hashesPerAddress
        )
    }

    /// The PIN keys: from the named file, or (SQLite only) from `<database>.pin-key`,
    /// created at first start. Instances sharing a PostgreSQL must share one key file, so one is
    /// never made up for them. A key beside the database is fine for development (relying party
    /// `localhost`); anywhere else it is logged as a warning: a stolen disk or backup holds both.
    static func pinKeyRing(_ configuration: ServerConfiguration, logger: Logger? = nil) throws -> PINKeyRing {
        let postgres = DatabaseLocation.isPostgres(configuration.databasePath)
        if let file = configuration.pinKeyFile { return try PINKeyRing.load(path: file, create: !postgres) }
        guard !postgres else {
            throw PINKeyRing.FileError(
                description:
                    "a PostgreSQL server needs --pin-key-file (BIOAUTH_PIN_KEY_FILE), the same file for every instance; see docs/DEPLOYMENT.md"
            )
        }
        let beside = configuration.databasePath + ".pin-key"
        if configuration.relyingPartyID != "localhost" {
            logger?.warning(
                """
                the PIN key is \(beside), beside the database: a stolen disk or backup holds both, and PINs fall to an offline \
                search; give --pin-key-file (BIOAUTH_PIN_KEY_FILE) a file kept apart (docs/DEPLOYMENT.md)
                """
            )
        }
        return try PINKeyRing.load(path: beside, create: true)
    }

    /// The passkey relying party the configuration describes; `direct` attestation reads its
    /// roots from ``ServerConfiguration/webAuthnTrustRootsFile``.
    static func relyingParty(_ configuration: ServerConfiguration) throws -> RelyingParty {
        var party = RelyingParty(
            id: configuration.relyingPartyID,
            name: configuration.relyingPartyName,
            origins: Set(configuration.allowedWebAuthnOrigins)
        )
        party.topOrigins = Set(configuration.webAuthnTopOrigins)
        party.userVerification = configuration.webAuthnUserVerification
        if configuration.webAuthnAttestation == .direct {
            guard let file = configuration.webAuthnTrustRootsFile else {
                throw SettingError("--webauthn-attestation direct needs --webauthn-trust-roots (a PEM file of attestation roots).")
            }
            let roots: [Certificate]
            do {
                roots = try AttestationPolicy.certificates(pem: String(contentsOfFile: file, encoding: .utf8))
            } catch {
                throw SettingError("--webauthn-trust-roots \(file) is not a readable PEM file of certificates.")
            }
            guard !roots.isEmpty else { throw SettingError("--webauthn-trust-roots \(file) holds no certificate.") }
            party.attestation = .direct(roots: roots)
        }
        return party
    }

    /// The device-key evidence policy the configuration describes: Google's roots and the
    /// operator's, the status list, the allowed apps. `prefer` and `require` need an allowed app.
    package static func keyAttestationPolicy(_ configuration: ServerConfiguration) throws -> KeyAttestationPolicy {
        let mode = configuration.keyAttestation
        guard mode != .none else { return KeyAttestationPolicy(mode: .none) }
        let androidApps = configuration.androidAllowedApps.compactMap(AndroidAllowedApp.init)
        let appIDs = configuration.appAttestAppIDs
        guard !androidApps.isEmpty || !appIDs.isEmpty else {
            throw SettingError("--key-attestation \(mode.rawValue) needs --android-allowed-app or --app-attest-app-id: no app could register a key.")
        }
        var policy = KeyAttestationPolicy(mode: mode)
        if !androidApps.isEmpty {
            var roots = AttestationRoots.googleHardware
            if let file = configuration.androidAttestationRootsFile {
                guard let extra = try? AttestationPolicy.certificates(pem: String(contentsOfFile: file, encoding: .utf8)), !extra.isEmpty else {
                    throw SettingError("--android-attestation-roots \(file) is not a readable PEM file of certificates.")
                }
                roots += extra
            }
            var revocations = AndroidRevocationList()
            if let file = configuration.androidRevocationsFile {
                guard let data = FileManager.default.contents(atPath: file), let list = try? AndroidRevocationList(json: data) else {
                    throw SettingError("--android-revocations \(file) is not a readable attestation status list (Google's JSON).")
                }
                revocations = list
            }
            policy.android = AndroidKeyAttestationVerifier(
                roots: roots,
                revocations: revocations,
                policy: AndroidAttestationPolicy(
                    allowedApps: androidApps,
                    requireStrongBox: configuration.androidRequireStrongBox,
                    boot: configuration.androidBoot
                )
            )
        }
        if !appIDs.isEmpty {
            policy.appAttest = AppAttestVerifier(policy: AppAttestPolicy(appIDs: appIDs, environment: configuration.appAttestEnvironment))
        }
        return policy
    }

    /// The HTTP application; it does not own the database (see ``close()``).
    ///
    /// - Parameters:
    ///   - onServerRunning: Called with the bound address once the server listens (port 0 picks
    ///     a free one).
    ///   - eventLoops: The threads serving its connections (NIO's shared ones unless given).
    package func application(
        onServerRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in },
        eventLoops: EventLoopGroupProvider = .singleton
    ) -> some ApplicationProtocol {
        let host = configuration.host
        let port = configuration.port
        // The decoder's own head limit sits above ours, so a head between the two gets the
        // contract's JSON 400 from RequestLimitsMiddleware; beyond it NIO answers a bare 400 and
        // closes the connection.
        let decoderLimit = configuration.maxHeaderBytes + 16 * 1024
        // The idle timeout counts HTTP parts, not bytes: a head that trickles in never yields a
        // part, so a slowloris sending header bytes is closed like a silent client.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .nanoseconds(Int64(configuration.requestTimeout.timeInterval * 1e9)),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: decoderLimit, maxHeaderListSize: decoderLimit, maxHeaderFieldCount: 1000)
        )
        let perAddress = ConnectionCounter(perAddress: configuration.maxConnectionsPerAddress, refused: metrics.refusedConnection)
        return Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                CappedChildChannel(base: HTTP1Channel(responder: responder, configuration: http1), counter: perAddress)
            },
            configuration: .init(
                address: .hostname(host, port: port),
                serverName: "BioAuth",
                availableConnectionsDelegate: MaximumAvailableConnections(connectionCap, logger: logger)
            ),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.ipAddress ?? host, channel.localAddress?.port ?? port)
            },
            eventLoopGroupProvider: eventLoops,
            logger: logger
        )
    }

    /// The metrics listener's application: `GET /metrics` (Prometheus text) and nothing else, on
    /// ``ServerConfiguration/metricsHost`` and ``ServerConfiguration/metricsPort``, apart from the
    /// public API. A scrape reads memory only.
    package func metricsApplication(
        onServerRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        let host = configuration.metricsHost
        let port = configuration.metricsPort
        let metrics = self.metrics
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: metrics.exposition())
            )
        }
        return Application(
            router: router,
            // A scraper needs one connection; the few allowed come out of DescriptorBudget's reserve.
            configuration: .init(
                address: .hostname(host, port: port),
                serverName: "BioAuth metrics",
                availableConnectionsDelegate: MaximumAvailableConnections(16, logger: logger)
            ),
            onServerRunning: { channel in
                await onServerRunning(channel.localAddress?.ipAddress ?? host, channel.localAddress?.port ?? port)
            },
            logger: logger
        )
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

    /// The router with every route of the contract.
    func makeRouter() -> Router<BioAuthRequestContext> {
        let browser = BrowserSession(origins: relyingParty.origins)
        let accountPage = AccountPageRoutes(services: services, browser: browser, rpID: relyingParty.id)
        let accounts = AccountRoutes(services: services)
        let biometrics = BiometricRoutes(services: services)
        let meta = MetaRoutes(services: services, openAPIDocument: OpenAPIDocument.bytes)
        let passkeys = PasskeyRoutes(services: services, relatedOrigins: configuration.allowedWebAuthnOrigins)
        let sessionRoutes = SessionRoutes(services: services)

        let router = Router(context: BioAuthRequestContext.self)
        let knownRoutes = KnownRoutes()
        // Method and path only: no headers (they carry the bearer token), never bodies.
        router.add(middleware: LogRequestsMiddleware(.info, includeHeaders: .none))
        router.add(middleware: MetricsRecordingMiddleware(metrics: metrics))
        router.add(middleware: ErrorShapeMiddleware(routes: knownRoutes))
        router.add(
            middleware: RequestLimitsMiddleware(
                maxHeaderBytes: configuration.maxHeaderBytes,
                trustForwardedFor: configuration.trustForwardedFor,
                requestTimeout: configuration.requestTimeout
            )
        )
        accountPage.addFileRoutes(to: router)
        // Counts every route below, and requests that match none.
        router.add(
            middleware: AddressRateLimitMiddleware(
                limiter: AddressRateLimiter(limit: configuration.requestsPerMinutePerAddress, time: time),
                trustForwardedFor: configuration.trustForwardedFor
            )
        )
        accounts.addPublicRoutes(to: router)
        biometrics.addPublicRoutes(to: router)
        meta.addPublicRoutes(to: router)
        passkeys.addPublicRoutes(to: router)
        accountPage.addPublicRoutes(to: router)

        let authenticated = router.group().add(middleware: BearerAuthMiddleware(sessions: services.sessions, browser: browser))
        accounts.addAuthenticatedRoutes(to: authenticated)
        sessionRoutes.addAuthenticatedRoutes(to: authenticated)
        biometrics.addAuthenticatedRoutes(to: authenticated)
        meta.addAuthenticatedRoutes(to: authenticated)
        passkeys.addAuthenticatedRoutes(to: authenticated)
        accountPage.addAuthenticatedRoutes(to: authenticated)
        knownRoutes.learn(from: router)
        return router
    }
}
