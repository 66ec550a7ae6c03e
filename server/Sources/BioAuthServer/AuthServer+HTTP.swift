import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The server's two HTTP applications: the API with every route of the contract, and the metrics
/// listener.
extension AuthServer {
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
        // part, so a slowloris sending header bytes is closed like a silent client. A body that
        // trickles in is closed at the deadline of its head (RequestDeadlineHandler).
        let timeout = TimeAmount.nanoseconds(Int64(configuration.requestTimeout.timeInterval * 1e9))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestDeadlineHandler(timeout: timeout)],
            idleTimeout: timeout,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: decoderLimit, maxHeaderListSize: decoderLimit, maxHeaderFieldCount: 1000)
        )
        let perClient = ConnectionCounter(
            perClient: ConnectionCounter.perClient(
                configured: configuration.maxConnectionsPerAddress,
                total: connectionCap,
                behindProxy: configuration.trustForwardedFor
            ),
            refused: metrics.refusedConnection
        )
        return Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                CappedChildChannel(base: HTTP1Channel(responder: responder, configuration: http1), counter: perClient)
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

    /// The router with every route of the contract.
    func makeRouter() -> Router<BioAuthRequestContext> {
        let browser = BrowserSession(origins: relyingParty.origins)
        let accountPage = AccountPageRoutes(services: services, browser: browser, rpID: relyingParty.id)
        let accounts = AccountRoutes(services: services)
        let biometrics = BiometricRoutes(services: services)
        let meta = MetaRoutes(services: services, openAPIDocument: OpenAPIDocument.bytes)
        let passkeys = PasskeyRoutes(services: services, relatedOrigins: configuration.allowedWebAuthnOrigins)
        let sessionRoutes = SessionRoutes(services: services)
        let accessTokens = AccessTokenRoutes(services: services)
        let confirmations = ConfirmationRoutes(services: services)

        let router = Router(context: BioAuthRequestContext.self)
        let knownRoutes = KnownRoutes()
        // Method and path only: no headers (they carry the bearer token), never bodies.
        router.add(middleware: LogRequestsMiddleware(.info, includeHeaders: .none))
        router.add(middleware: MetricsRecordingMiddleware(metrics: metrics))
        router.add(middleware: ErrorShapeMiddleware(routes: knownRoutes))
        router.add(
            middleware: RequestLimitsMiddleware(
                maxHeaderBytes: configuration.maxHeaderBytes,
                trustForwardedFor: configuration.trustForwardedFor
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
        accessTokens.addPublicRoutes(to: router)

        // The bank's backends, with their service credentials only.
        let service = router.group().add(middleware: ServiceCredentialAuthenticator(credentials: services.serviceCredentials))
        confirmations.addServiceRoutes(to: service)

        let authenticated = router.group()
            .add(middleware: BearerAuthenticator(sessions: services.sessions))
            .add(middleware: BrowserSessionAuthenticator(sessions: services.sessions, browser: browser))
            .add(middleware: CallerRequiredMiddleware())
        accounts.addAuthenticatedRoutes(to: authenticated)
        sessionRoutes.addAuthenticatedRoutes(to: authenticated)
        accessTokens.addAuthenticatedRoutes(to: authenticated)
        biometrics.addAuthenticatedRoutes(to: authenticated)
        meta.addAuthenticatedRoutes(to: authenticated)
        passkeys.addAuthenticatedRoutes(to: authenticated)
        accountPage.addAuthenticatedRoutes(to: authenticated)
        confirmations.addAuthenticatedRoutes(to: authenticated)
        knownRoutes.learn(from: router)
        return router
    }
}
