import BioAuthProtocol
import Hummingbird

/// Admits a request only with `Authorization: Bearer <token>` naming a live session, and puts the
/// caller into the context.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let sessions: SessionService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIError(.invalidSession, "Missing Authorization: Bearer token.")
        }
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            throw APIError(.invalidSession, "The Authorization header is not a Bearer token.")
        }
        let token = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        var context = context
        context.caller = try await sessions.authenticate(token: token)
        return try await next(request, context)
    }
}
