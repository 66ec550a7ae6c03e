import BioAuthProtocol
import Foundation
import Hummingbird

/// Health, the audit trail and the API document (metrics have a listener of their own, see
/// ``AuthServer/metricsApplication(onServerRunning:)``).
struct MetaRoutes {
    let audit: AuditLog
    let openAPIDocument: ByteBuffer

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.getHealth, in: catalog) { _, _ in
            try JSONBody.response(HealthResponse())
        }
        router.route(.getOpenAPIDocument, in: catalog) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.listAuditEvents, in: catalog) { _, context in
            try JSONBody.response(AuditEventListResponse(events: try await audit.events(of: try context.requireCaller().userID)))
        }
    }
}
