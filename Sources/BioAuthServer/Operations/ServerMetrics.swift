import BioAuthProtocol
import Foundation
import Hummingbird
import Metrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into this server's own
/// Prometheus registry (not the process-wide `MetricsSystem`, so several servers in one process,
/// as in the tests, keep separate counts) and served at `GET /metrics` on a listener of its own
/// (``AuthServer/metricsApplication(onServerRunning:)``), never on the public API.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `bioauth_http_requests_total` | counter | `route` (the route template, `unmatched` for unknown paths), `method`, `status` |
/// | `bioauth_http_request_duration_seconds` | histogram | `route`, `method` |
/// | `bioauth_ceremonies_total` | counter | `ceremony` (`registration`, `authentication`), `outcome` (`success`, `failure` = refused signature or challenge, `rejected` = any other refusal) |
/// | `bioauth_lockouts_total` | counter | `factor` (`password`, `pin`): factors this instance locked |
/// | `bioauth_locked_attempts_total` | counter | `factor`: attempts refused because the factor was locked |
/// | `bioauth_active_sessions` | gauge | none: live sessions in the database (all instances), as of the last housekeeping run; a scrape never touches the database |
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let activeSessions: Prometheus.Gauge

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        activeSessions = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "bioauth", metricName: "active", unitName: "sessions", helpText: "Live (unexpired, unrevoked) sessions in the database."))
    }

    /// One answered request.
    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        Metrics.Counter(label: "bioauth_http_requests_total", dimensions: [("route", route), ("method", method), ("status", "\(status)")], factory: factory)
            .increment()
        Metrics.Timer(label: "bioauth_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(nanoseconds)
        let ceremony: String? = switch (method, route) {
        case (Endpoint.signInWithBiometric.method.rawValue, Endpoint.signInWithBiometric.template): "authentication"
        case (Endpoint.verifyRegistration.method.rawValue, Endpoint.verifyRegistration.template): "registration"
        default: nil
        }
        if let ceremony {
            let outcome = status == 200 ? "success" : status == 401 ? "failure" : "rejected"
            Metrics.Counter(label: "bioauth_ceremonies_total", dimensions: [("ceremony", ceremony), ("outcome", outcome)], factory: factory).increment()
        }
    }

    /// A factor was locked by its threshold-th failure.
    func lockout(_ factor: FactorLockout.Factor) {
        Metrics.Counter(label: "bioauth_lockouts_total", dimensions: [("factor", factor.rawValue)], factory: factory).increment()
    }

    /// An attempt was refused because its factor is locked.
    func lockedAttempt(_ factor: FactorLockout.Factor) {
        Metrics.Counter(label: "bioauth_locked_attempts_total", dimensions: [("factor", factor.rawValue)], factory: factory).increment()
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

/// Counts every request by route, method and status, with its latency. Outermost but for the
/// request log, so it sees the final answer (errors already shaped, limits already applied).
struct MetricsRecordingMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let route = context.endpointPath ?? "unmatched"
        do {
            let response = try await next(request, context)
            record(route: route, method: request.method.rawValue, status: Int(response.status.code), since: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(route: route, method: request.method.rawValue, status: Int(status), since: start)
            throw error
        }
    }

    private func record(route: String, method: String, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - start).components
        metrics.request(route: route, method: method, status: status,
                        nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }
}
