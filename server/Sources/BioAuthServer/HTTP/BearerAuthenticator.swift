import BioAuthProtocol
import Hummingbird

/// Names the caller from `Authorization: Bearer <token>`, when the request has that header: the
/// token must name a live session. Without the header it passes the request on untouched (the
/// browser's authenticator or ``CallerRequiredMiddleware`` decides then).
struct BearerAuthenticator: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard let token = Self.token(in: header) else {
            throw Rejection(.invalidSession, "The Authorization header is not a Bearer token.")
        }
        var context = context
        context.caller = try await sessions.authenticate(token: token)
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case), or `nil`
    /// when the header is not one.
    static func token(in header: String) -> String? {
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else { return nil }
        return String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }
}
