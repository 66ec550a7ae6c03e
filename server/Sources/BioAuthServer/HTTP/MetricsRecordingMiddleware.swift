import Foundation
import Hummingbird

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

    /// The methods counted under their own name; any other (a client may send any token) is
    /// `other`, so that requests cannot grow the metrics without bound.
    private static let namedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private func record(route: String, method: String, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - start).components
        metrics.request(
            route: route,
            method: Self.namedMethods.contains(method) ? method : "other",
            status: status,
            nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
        )
    }
}
