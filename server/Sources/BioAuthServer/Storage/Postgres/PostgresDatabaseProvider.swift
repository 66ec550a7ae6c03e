import Foundation
import Logging
import NIOPosix
import NIOSSL
import PostgresKit
import SQLKit

/// PostgreSQL, for running several server instances over one database.
///
/// A pool of connections (PostgresNIO's `PostgresClient`); every transaction is pinned to one
/// connection from `BEGIN` to `COMMIT`/`ROLLBACK`, at PostgreSQL's default READ COMMITTED
/// isolation. The services are written so that this is enough: every check-then-write either is
/// one atomic statement (`INSERT … ON CONFLICT`, `UPDATE/DELETE … RETURNING`), is backed by a
/// UNIQUE constraint (``isUniqueViolation(_:)`` maps SQLSTATE 23505 to the contract's 409), or
/// first locks the row it depends on (``DatabaseProvider/lockUser(_:id:)``).
package final class PostgresDatabaseProvider: DatabaseProvider {
    package let flavor = SQLFlavor.postgres
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let watch = LeaseWatch()
    private let watcher: Task<Void, Never>
    private let logger: Logger
    private let metrics: DatabaseMetrics?
    private let connectionWait: Duration
    private let outage: DatabaseOutageLog

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var url: String
        var reason: String
        var description: String { "cannot open database at \(DatabaseLocation.redacted(url)): \(reason)" }
    }

    /// The client configuration a `postgres://USER:PASS@HOST:PORT/DB[?sslmode=…&sslrootcert=PATH]`
    /// URL names, and the same for the single connection that probes it at start (see
    /// ``PostgresTLSPolicy`` for what each `sslmode` means).
    static func configuration(url: String, maxConnections: Int) throws -> (PostgresClient.Configuration, PostgresConnection.Configuration) {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else {
            throw OpenError(url: url, reason: "expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        let query = { (name: String) in components.queryItems?.first(where: { $0.name == name })?.value }
        let policy: PostgresTLSPolicy
        do {
            policy = try PostgresTLSPolicy(host: host, sslmode: query("sslmode"), rootCertificateFile: query("sslrootcert"))
        } catch {
            throw OpenError(url: url, reason: "\(error)")
        }
        let tls: PostgresClient.Configuration.TLS
        let probeTLS: PostgresConnection.Configuration.TLS
        switch policy.mode {
        case .plain:
            (tls, probeTLS) = (.disable, .disable)
        case .preferred:
            (tls, probeTLS) = (.prefer(policy.tlsConfiguration), .prefer(try NIOSSLContext(configuration: policy.tlsConfiguration)))
        case .required:
            (tls, probeTLS) = (.require(policy.tlsConfiguration), .require(try NIOSSLContext(configuration: policy.tlsConfiguration)))
        }
        let port = components.port ?? 5432
        let databaseName = database.isEmpty ? user : database
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: user,
            password: components.password,
            database: databaseName,
            tls: tls
        )
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectionIdleTimeout = .seconds(60)
        // No keep-alive queries: the pool closes a connection unused for a minute, before any
        // common firewall or NAT drops it, and a keep-alive costs a timer (a task and a sleep) at
        // every return to the pool, cancelled at the next lease. (A minimum of open connections
        // would spare the idle timer too, but PostgresNIO 1.33's pool trips a precondition when
        // it leases below that minimum after an outage.)
        configuration.options.keepAliveBehavior = nil
        let probe = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: user,
            password: components.password,
            database: databaseName,
            tls: probeTLS
        )
        return (configuration, probe)
    }

    private init(client: PostgresClient, connectionWait: Duration, metrics: DatabaseMetrics?, logger: Logger) {
        self.client = client
        self.connectionWait = connectionWait
        self.metrics = metrics
        self.logger = logger
        self.outage = DatabaseOutageLog(logger: logger)
        // The pool must be running before the first lease, or PostgresNIO logs a warning on the
        // operator's console (the lease itself waits). `Task.immediate` runs `run()` up to its
        // first suspension here, and `run()` marks the pool running before that.
        if #available(macOS 26, *) {
            self.runner = Task.immediate { await client.run() }
        } else {
            self.runner = Task { await client.run() }
        }
        self.watcher = Task { [watch] in await watch.run() }
    }

    /// The logger PostgresNIO and PostgresKit get: never below `info`. At `debug` PostgresKit logs
    /// every statement with its bind values, and at `trace` PostgresNIO logs every message it sends
    /// and receives, rows included; those carry token digests and password and PIN hashes, which no
    /// log may hold, whatever level the operator chose.
    static func driverLogger(_ logger: Logger) -> Logger {
        var logger = logger
        logger.logLevel = max(logger.logLevel, .info)
        return logger
    }

    /// Connects to the server the URL names (checking it answers now, not on the first sign-in).
    ///
    /// - Parameter connectionWait: The longest a call waits for a pooled connection before it
    ///   throws ``DatabaseUnavailable`` (while PostgreSQL is down the pool queues every request).
    package static func open(
        url: String,
        maxConnections: Int = 20,
        connectionWait: Duration = .seconds(2),
        metrics: DatabaseMetrics? = nil,
        logger serverLogger: Logger
    ) async throws -> PostgresDatabaseProvider {
        let logger = driverLogger(serverLogger)
        let (configuration, probeConfiguration) = try configuration(url: url, maxConnections: maxConnections)
        // One plain connection first: the pool queues its requests while it retries a refused or
        // failed connection, while an operator starting the server wants the reason at once.
        do {
            let probe = try await PostgresConnection.connect(configuration: probeConfiguration, id: 0, logger: logger)
            try? await probe.close()
        } catch {
            throw OpenError(url: url, reason: Self.describe(error))
        }
        // Every connection on one event loop: replies then wake one thread, not whichever of
        // NIO's (one per core) holds the connection. On 2 cores that took about a fifth off the
        // server's CPU per PostgreSQL sign-in (docs/BENCHMARKS.md); one loop encodes and decodes
        // a sign-in's messages in tens of microseconds, far from being the limit.
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let client = PostgresClient(configuration: configuration, eventLoopGroup: loop, backgroundLogger: logger)
        let provider = PostgresDatabaseProvider(
            client: client,
            connectionWait: connectionWait,
            metrics: metrics,
            logger: logger
        )
        do {
            // The pool answers too, within 10 seconds.
            try await provider.withConnection(for: .read, waitingAtMost: .seconds(10)) { db in try await db.raw("SELECT 1 AS one").run() }
        } catch {
            try? await provider.shutdown()
            throw OpenError(url: url, reason: (error as? DatabaseUnavailable)?.reason ?? Self.describe(error))
        }
        return provider
    }

    /// A PostgreSQL error in one line, with the server's message when there is one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            return "\(error.code)" + (error.underlying.map { ": \(String(describing: $0))" } ?? "")
        }
        return String(describing: error)
    }

    /// Runs `body` on a pooled connection, then waits for PostgreSQL's commit of its statements
    /// (see ``PostgresStatementDatabase/awaitImplicitCommit()``).
    package func withDatabase<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        try await withConnection(for: .write) { db in
            let value = try await body(db)
            try await db.awaitImplicitCommit()
            return value
        }
    }

    /// A pooled connection, as for ``withDatabase(_:)``: PostgreSQL's readers never wait for its
    /// writers.
    package func read<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        try await withConnection(for: .read) { try await body($0) }
    }

    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        try await withConnection(for: .transaction) { [logger] db in
            try await runTransaction(on: db, begin: "BEGIN", logger: logger, describe: Self.describe, body) { error in
                db.connection.isClosed || Self.unavailability(of: error, leased: true) != nil
            }
        }
    }

    /// Runs `body` on a pooled connection, recording how long `work` waited for it. A wait
    /// longer than `waitingAtMost` (the provider's `connectionWait` by default), a connection that
    /// closes under `body`, and an error that means PostgreSQL is unreachable are thrown as
    /// ``DatabaseUnavailable`` (``LeaseRace``).
    ///
    /// Only the wait is timed: PostgresNIO cannot cancel a statement it has sent, so `body`, once
    /// it has its connection, runs to its end while the connection lives.
    private func withConnection<T: Sendable>(
        for work: DatabaseMetrics.Work,
        waitingAtMost wait: Duration? = nil,
        _ body: @escaping @Sendable (PostgresStatementDatabase) async throws -> T
    ) async throws -> T {
        let asked = ContinuousClock.now
        return try await outage.watching({ $0 as? DatabaseUnavailable }) { [client, metrics, watch] in
            try await LeaseRace.run(
                waitingAtMost: wait ?? connectionWait,
                watchedBy: watch,
                lease: { try await client.withConnection($0) },
                classify: Self.unavailability
            ) { connection in
                metrics?.waited(work, since: asked)
                return try await body(PostgresStatementDatabase(connection: connection))
            }
        }
    }

    package func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    package func shutdown() async throws {
        runner.cancel()
        await runner.value
        watcher.cancel()
        await watcher.value
    }
}
