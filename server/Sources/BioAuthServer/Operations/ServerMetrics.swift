import BioAuthProtocol
import Foundation
import Hummingbird
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, recorded through swift-metrics into this server's own
/// Prometheus registry (not the process-wide `MetricsSystem`, so several servers in one process,
/// as in the tests, keep separate counts) and served at `GET /metrics` on a listener of its own
/// (``AuthServer/metricsApplication(onServerRunning:)``), never on the public API.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `bioauth_http_requests_total` | counter | `route` (the route template, `unmatched` for unknown paths), `method` (`other` for an unusual one), `status` |
/// | `bioauth_http_request_duration_seconds` | histogram | `route`, `method` |
/// | `bioauth_ceremonies_total` | counter | `ceremony` (`registration`, `authentication`), `outcome` (`success`, `failure` = refused signature or challenge, `rejected` = any other refusal) |
/// | `bioauth_lockouts_total` | counter | `factor` (`password`, `pin`): factors this instance locked |
/// | `bioauth_locked_attempts_total` | counter | `factor`: attempts refused because the factor was locked |
/// | `bioauth_connections_refused_total` | counter | none: connections closed as they were accepted, their address holding its share |
/// | `bioauth_active_sessions` | gauge | none: live sessions in the database (all instances), as of the last housekeeping run; a scrape never touches the database |
///
/// and the database's waits and commits (``DatabaseMetrics``).
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// The database providers' waits and commits, in this registry.
    let database: DatabaseMetrics
    private let factory: PrometheusMetricsFactory
    private let activeSessions: Prometheus.Gauge
    /// The handles of each (route, method, status) seen, made once: looking them up in the
    /// registry, which builds and hashes their label sets under its lock, cost more per request
    /// than recording.
    private let requestHandles = Mutex<[RequestKey: RequestHandles]>([:])

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct RequestHandles {
        var count: Metrics.Counter
        var duration: Metrics.Timer
        var ceremony: Metrics.Counter?
    }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        database = DatabaseMetrics(registry: registry)
        activeSessions = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "bioauth",
                metricName: "active",
                unitName: "sessions",
                helpText: "Live (unexpired, unrevoked) sessions in the database."
            )
        )
    }

    /// One answered request.
    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(route: route, method: method, status: status)
        let handles = requestHandles.withLock { handles in
            if let known = handles[key] { return known }
            let made = makeHandles(key)
            handles[key] = made
            return made
        }
        handles.count.increment()
        handles.duration.recordNanoseconds(nanoseconds)
        handles.ceremony?.increment()
    }

    private func makeHandles(_ key: RequestKey) -> RequestHandles {
        let ceremony: String? =
            switch (key.method, key.route) {
            case (Endpoint.signInWithBiometric.method.rawValue, Endpoint.signInWithBiometric.template): "authentication"
            case (Endpoint.verifyRegistration.method.rawValue, Endpoint.verifyRegistration.template): "registration"
            default: nil
            }
        let outcome = key.status == 200 ? "success" : key.status == 401 ? "failure" : "rejected"
        return RequestHandles(
            count: Metrics.Counter(
                label: "bioauth_http_requests_total",
                dimensions: [("route", key.route), ("method", key.method), ("status", "\(key.status)")],
                factory: factory
            ),
            duration: Metrics.Timer(
                label: "bioauth_http_request_duration_seconds",
                dimensions: [("route", key.route), ("method", key.method)],
                factory: factory
            ),
            ceremony: ceremony.map {
                Metrics.Counter(label: "bioauth_ceremonies_total", dimensions: [("ceremony", $0), ("outcome", outcome)], factory: factory)
            }
        )
    }

    /// A factor was locked by its threshold-th failure.
    func lockout(_ factor: LockoutPolicy.Factor) {
        Metrics.Counter(label: "bioauth_lockouts_total", dimensions: [("factor", factor.rawValue)], factory: factory).increment()
    }

    /// An attempt was refused because its factor is locked.
    func lockedAttempt(_ factor: LockoutPolicy.Factor) {
        Metrics.Counter(label: "bioauth_locked_attempts_total", dimensions: [("factor", factor.rawValue)], factory: factory).increment()
    }

    /// A connection was closed as it was accepted: its client held its share (``ConnectionCounter``).
    @Sendable func refusedConnection() {
        Metrics.Counter(label: "bioauth_connections_refused_total", factory: factory).increment()
    }

    /// Records how many live sessions the database holds (housekeeping counts them).
    func setActiveSessions(_ count: Int) {
        activeSessions.set(Int64(count))
    }

    /// The exposition text; reads only this process's memory.
    func exposition() -> ByteBuffer {
        ByteBuffer(bytes: registry.emitToBuffer())
    }
}
