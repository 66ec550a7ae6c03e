import BioAuthProtocol
import Hummingbird

/// Names the caller from the account page's session cookie, when no other authenticator named one
/// and the request sends no `Authorization` header: the cookie must name a live session, and a
/// state change also needs the page's origin and CSRF token (``BrowserSession``).
struct BrowserSessionAuthenticator: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let sessions: SessionService
    let browser: BrowserSession

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.caller == nil, request.headers[.authorization] == nil, let token = BrowserSession.token(in: request) else {
            return try await next(request, context)
        }
        var context = context
        context.caller = try await sessions.authenticate(token: token)
        try browser.checkStateChange(request, token: token)
        return try await next(request, context)
    }
}
