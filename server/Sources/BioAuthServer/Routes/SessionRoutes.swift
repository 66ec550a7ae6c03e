import BioAuthProtocol
import Hummingbird

/// `/v1/sessions…` for a signed-in caller: look, re-authenticate (with the password, a biometric
/// key or a passkey), sign out (here, elsewhere, one).
struct SessionRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.getCurrentSession) { _, context in
            try await services.sessions.current(try context.requireCaller())
        }
        router.route(.signOut) { _, context in
            let caller = try context.requireCaller()
            try await services.sessions.revoke(caller.sessionID, of: caller)
            return HTTPResponse.Status.noContent
        }
        router.route(.reauthenticate) { request, context in
            let body = try await request.decode(as: ReauthenticationBody.self, context: context)
            return try await services.reauthentication.reauthenticate(body, for: try context.requireCaller())
        }
        router.route(.createReauthenticationPasskeyOptions) { _, context in
            EditedResponse(status: .created, response: try await services.reauthentication.passkeyOptions(for: try context.requireCaller()))
        }
        router.route(.signOutElsewhere) { _, context in
            try await services.sessions.revokeOthers(of: try context.requireCaller())
            return HTTPResponse.Status.noContent
        }
        router.route(.listSessions) { _, context in
            SessionListResponse(sessions: try await services.sessions.list(try context.requireCaller()))
        }
        router.route(.revokeSession) { _, context in
            let id = try context.pathID()
            try await services.sessions.revoke(id, of: try context.requireCaller())
            return HTTPResponse.Status.noContent
        }
    }
}
