import BioAuthProtocol
import Hummingbird

/// Admits a request only with `Authorization: Bearer <token>`, or the account page's session
/// cookie (a state change then also needs the page's origin and CSRF token, see
/// ``BrowserSession``), naming a live session, and puts the caller into the context.
///
/// A session signed in with a one-time password (set by an operator's `bioauth admin`) may only
/// change the password, look at itself and sign out (by API or from the account page); anything
/// else is `403 password_change_required`.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let sessions: SessionService
    let browser: BrowserSession

    /// What a session that must change its password may call.
    static let allowedBeforePasswordChange: Set<String> = [
        "PUT /v1/users/me/password", "GET /v1/sessions/current", "DELETE /v1/sessions/current", "GET /web/session", "POST /web/sign-out",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token: String
        var byCookie = false
        if let header = request.headers[.authorization] {
            let prefix = "bearer "
            guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
                throw Rejection(.invalidSession, "The Authorization header is not a Bearer token.")
            }
            token = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        } else if let cookie = BrowserSession.token(in: request) {
            token = cookie
            byCookie = true
        } else {
            throw Rejection(.invalidSession, "Missing Authorization: Bearer token.")
        }
        var context = context
        let caller = try await sessions.authenticate(token: token)
        if byCookie { try browser.checkStateChange(request, token: token) }
        if caller.passwordChangeRequired, !Self.allowedBeforePasswordChange.contains("\(request.method.rawValue) \(request.uri.path)") {
            throw Rejection(.passwordChangeRequired, "This session was signed in with a one-time password: change the password first.")
        }
        context.caller = caller
        return try await next(request, context)
    }
}
