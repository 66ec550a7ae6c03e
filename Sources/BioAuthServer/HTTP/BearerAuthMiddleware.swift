import BioAuthProtocol
import Hummingbird

/// Admits a request only with `Authorization: Bearer <token>` naming a live session, and puts the
/// caller into the context.
///
/// A session signed in with a one-time password (set by an operator's `bioauth admin`) may only
/// change the password, re-authenticate, look at itself and sign out; anything else is
/// `403 password_change_required`.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let sessions: SessionService

    /// What a session that must change its password may call.
    static let allowedBeforePasswordChange: Set<String> = [
        "PUT /v1/users/me/password", "POST /v1/sessions/current/reauthenticate", "GET /v1/sessions/current", "DELETE /v1/sessions/current",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw Rejection(.invalidSession, "Missing Authorization: Bearer token.")
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            throw Rejection(.invalidSession, "The Authorization header is not a Bearer token.")
        }
        let token = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        var context = context
        let caller = try await sessions.authenticate(token: token)
        if caller.passwordChangeRequired, !Self.allowedBeforePasswordChange.contains("\(request.method.rawValue) \(request.uri.path)") {
            throw Rejection(.passwordChangeRequired, "This session was signed in with a one-time password: change the password first.")
        }
        context.caller = caller
        return try await next(request, context)
    }
}
