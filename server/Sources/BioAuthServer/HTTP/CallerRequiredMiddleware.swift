import BioAuthProtocol
import Hummingbird

/// Admits a request only once an authenticator (``BearerAuthenticator``,
/// ``BrowserSessionAuthenticator``) named its caller.
///
/// A session signed in with a one-time password (set by an operator's `bioauth admin`) may only
/// change the password, look at itself and sign out (by API or from the account page); anything
/// else is `403 password_change_required`.
struct CallerRequiredMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext

    /// What a session that must change its password may call.
    static let allowedBeforePasswordChange: [Endpoint] = [.changePassword, .getCurrentSession, .signOut, .getWebSession, .webSignOut]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let caller = context.caller else { throw Rejection(.invalidSession, "Missing Authorization: Bearer token.") }
        let allowed = Self.allowedBeforePasswordChange.contains { $0.method.rawValue == request.method.rawValue && $0.template == request.uri.path }
        if caller.passwordChangeRequired, !allowed {
            throw Rejection(.passwordChangeRequired, "This session was signed in with a one-time password: change the password first.")
        }
        return try await next(request, context)
    }
}
