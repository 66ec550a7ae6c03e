import BioAuthProtocol
import Hummingbird

/// Confirmations: `/v1/service/confirmations…` for the bank's backend (a service credential),
/// `/v1/confirmations…` for the signed-in account.
struct ConfirmationRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices

    func addServiceRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createConfirmation) { request, context in
            let body = try await request.decode(as: CreateConfirmationRequest.self, context: context)
            return EditedResponse(status: .created, response: try await services.confirmations.create(body, for: try context.requireService()))
        }
        router.route(.getConfirmation) { _, context in
            try await services.confirmations.get(id: try context.pathID(), for: try context.requireService())
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.listConfirmations) { _, context in
            try await services.confirmations.list(for: try context.requireCaller())
        }
        router.route(.approveConfirmation) { request, context in
            let id = try context.pathID()
            let body = try await request.decode(as: ApproveConfirmationRequest.self, context: context)
            return try await services.confirmationApprovals.approve(id: id, body, for: try context.requireCaller())
        }
        router.route(.declineConfirmation) { _, context in
            try await services.confirmations.decline(id: try context.pathID(), for: try context.requireCaller())
        }
    }
}
