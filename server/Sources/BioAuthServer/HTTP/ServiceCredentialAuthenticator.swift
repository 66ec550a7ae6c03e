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
        guard let header = request.headers[.authorization], let token = BearerAuthenticator.token(in: header) else {
            throw Rejection(.invalidServiceCredential, "Send the service credential as Authorization: Bearer.")
        }
        var context = context
        context.service = try await credentials.authenticate(token)
        return try await next(request, context)
    }
}
