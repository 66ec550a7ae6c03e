import BioAuthProtocol
import Foundation
import Hummingbird

/// Health, the audit trail and the API document (metrics have a listener of their own, see
/// ``AuthServer/metricsApplication(onServerRunning:)``).
struct MetaRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices
    let openAPIDocument: ByteBuffer

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.getHealth) { _, _ in
            HealthResponse()
        }
        router.route(.getOpenAPIDocument) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.listAuditEvents) { _, context in
            AuditEventListResponse(events: try await services.audit.events(of: try context.requireCaller().userID))
        }
    }
}
