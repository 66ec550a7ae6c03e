import Foundation
import Hummingbird
import Logging
import NIOCore

/// The per-request context: Hummingbird's core storage plus the signed-in caller, once the
/// authentication middleware has found one.
struct BioAuthRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller, on authenticated routes.
    var caller: Caller?
    /// The bank's backend, on `/v1/service/…` routes (``ServiceCredentialAuthenticator``).
    var service: ServiceCaller?
    /// The TCP peer's IP address (nil for a Unix socket or a test transport without one).
    let remoteAddress: String?
    /// The connection, for the one case that must end it from a handler (a body past its deadline).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress?.ipAddress
        self.channel = source.channel
    }

    /// The contract's body limit, applied by ``BioAuthRequestDecoder`` too.
    var maxUploadSize: Int { 64 * 1024 }

    /// Request bodies are the contract's JSON.
    var requestDecoder: BioAuthRequestDecoder { BioAuthRequestDecoder() }

    /// Handlers' values are answered as the contract's JSON.
    var responseEncoder: BioAuthResponseEncoder { BioAuthResponseEncoder() }

    /// The `{id}` path parameter, refused (`400 invalid_request`) when no database could look it up.
    func pathID() throws -> String {
        let id = try parameters.require("id")
        guard StorableText.isStorable(pathParameter: Substring(id)) else {
            throw Rejection(.invalidRequest, "The id in the path may not contain the NUL character.")
        }
        return id
    }

    /// The backend on a service route; the middleware guarantees it is there.
    func requireService() throws -> ServiceCaller {
        guard let service else { throw Rejection(.invalidServiceCredential, "Send a service credential.") }
        return service
    }

    /// The caller on an authenticated route; the middleware guarantees it is there.
    func requireCaller() throws -> Caller {
        guard let caller else { throw Rejection(.invalidSession, "Sign in first.") }
        return caller
    }
}
