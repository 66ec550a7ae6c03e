import BioAuthProtocol
import Hummingbird

/// Admits a request to `/v1/service/…` only with `Authorization: Bearer <service credential>`
/// naming a live credential, and names its backend; anything else, a user's session token
/// included, is `401 invalid_service_credential`. (The session authenticators take no service
/// credential either: its text is never a session token's.)
struct ServiceCredentialAuthenticator: RouterMiddleware {
    typealias Context = BioAuthRequestContext
    let credentials: ServiceCredentialCheck

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let prefix = "bearer "
        guard let header = request.headers[.authorization], header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
            throw Rejection(.invalidServiceCredential, "Send the service credential as Authorization: Bearer.")
        }
        var context = context
        context.service = try await credentials.authenticate(String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces))
        return try await next(request, context)
    }
}
