import Hummingbird
import Logging

/// The per-request context: Hummingbird's core storage plus the signed-in caller, once the
/// authentication middleware has found one.
struct BioAuthRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller, on authenticated routes.
    var caller: Caller?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// The contract's body limit, applied by ``JSONBody`` too.
    var maxUploadSize: Int { 64 * 1024 }

    /// The caller on an authenticated route; the middleware guarantees it is there.
    func requireCaller() throws -> Caller {
        guard let caller else { throw APIError(.invalidSession, "Sign in first.") }
        return caller
    }
}

/// Who is calling: the session the bearer token opened, and its user.
struct Caller: Sendable {
    var sessionID: String
    var userID: String
}
