import BioAuthProtocol
import Hummingbird

/// `/v1/sessions…` for a signed-in caller: look, re-authenticate (with the password, a biometric
/// key or a passkey), sign out (here, elsewhere, one).
struct SessionRoutes {
    let sessions: SessionService
    let reauthentication: ReauthenticationService

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.getCurrentSession, in: catalog) { _, context in
            try JSONBody.response(try await sessions.current(try context.requireCaller()))
        }
        router.route(.signOut, in: catalog) { _, context in
            let caller = try context.requireCaller()
            try await sessions.revoke(caller.sessionID, of: caller)
            return Response(status: .noContent)
        }
        router.route(.reauthenticate, in: catalog) { request, context in
            let body = try await JSONBody.decode(ReauthenticationBody.self, from: request, context: context)
            return try JSONBody.response(try await reauthentication.reauthenticate(body, for: try context.requireCaller()))
        }
        router.route(.createReauthenticationPasskeyOptions, in: catalog) { _, context in
            try JSONBody.response(try await reauthentication.passkeyOptions(for: try context.requireCaller()), status: .created)
        }
        router.route(.signOutElsewhere, in: catalog) { _, context in
            try await sessions.revokeOthers(of: try context.requireCaller())
            return Response(status: .noContent)
        }
        router.route(.listSessions, in: catalog) { _, context in
            try JSONBody.response(SessionListResponse(sessions: try await sessions.list(try context.requireCaller())))
        }
        router.route(.revokeSession, in: catalog) { _, context in
            let id = try context.pathID()
            try await sessions.revoke(id, of: try context.requireCaller())
            return Response(status: .noContent)
        }
    }
}
