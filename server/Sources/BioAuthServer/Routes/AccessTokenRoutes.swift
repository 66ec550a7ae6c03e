import BioAuthProtocol
import Hummingbird
import NIOCore

/// Access tokens for the app's own backend: minting one for the caller's session, and the key set
/// and metadata a backend verifies them with (public, cacheable for the cache period).
struct AccessTokenRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.getKeySet) { _, _ in
            Self.cacheable(try await services.accessTokens.keySet())
        }
        router.route(.getAuthorizationServerMetadata) { _, _ in
            Self.cacheable(services.accessTokens.metadata)
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createAccessToken) { _, context in
            try await services.accessTokens.mint(for: try context.requireCaller())
        }
    }

    /// A public JSON answer a cache may keep for ``SigningKeySchedule/cachePeriod``.
    private static func cacheable(_ json: JOSEJSON) -> Response {
        let seconds = SigningKeySchedule.cachePeriod.components.seconds
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(seconds)"],
            body: .init(byteBuffer: ByteBuffer(bytes: json.bytes))
        )
    }
}
