import BioAuthProtocol
import Foundation
import Hummingbird

/// Health, metrics, the audit trail and the API document.
struct MetaRoutes {
    let audit: AuditLog
    let openAPIDocument: ByteBuffer
    let metrics: ServerMetrics
    let database: any DatabaseProvider
    let time: TimeSource

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.get, "/health", in: catalog) { _, _ in
            try JSONBody.response(HealthResponse())
        }
        router.route(.get, "/metrics", in: catalog) { _, _ in
            let now = time.now().millisecondsSince1970
            let active = try await database.withDatabase { db in
                try await db.raw("SELECT COUNT(*) AS live FROM sessions WHERE revoked_at IS NULL AND expires_at > \(bind: now)")
                    .first()?.decode(column: "live", as: Int.self) ?? 0
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: metrics.exposition(activeSessions: active)))
        }
        router.route(.get, "/openapi.yaml", in: catalog) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.get, "/v1/audit", in: catalog) { _, context in
            try JSONBody.response(AuditEventListResponse(events: try await audit.events(of: try context.requireCaller().userID)))
        }
    }
}
