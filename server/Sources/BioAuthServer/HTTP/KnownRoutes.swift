import BioAuthProtocol
import Hummingbird
import Synchronization

/// The routes the router holds, read from the router itself once every route is registered
/// (``learn(from:)``): what tells "no such path" (404 `not_found`) from "path exists, other method"
/// (405 `method_not_allowed`) in ``ErrorShapeMiddleware``, which is added before the routes.
final class KnownRoutes: Sendable {
    private let routes = Mutex<[(method: HTTPRequest.Method, segments: [Substring])]>([])

    init() {}

    /// Reads the router's routes; call it once the last route is added.
    func learn(from router: Router<BioAuthRequestContext>) {
        let learned = router.routes.map { (method: $0.method, segments: $0.path.description.split(separator: "/")) }
        routes.withLock { $0 = learned }
    }

    /// The methods of the routes whose template matches a concrete request path.
    func methods(matching requestPath: String) -> Set<HTTPRequest.Method> {
        let segments = requestPath.split(separator: "/")
        return routes.withLock { routes in
            Set(
                routes.filter { route in
                    route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
                }.map(\.method)
            )
        }
    }
}

extension RouterMethods where Context == BioAuthRequestContext {
    /// Registers the route of one of the contract's endpoints.
    @discardableResult
    func route(_ endpoint: Endpoint, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        on(RouterPath(endpoint.template), method: HTTPRequest.Method(rawValue: endpoint.method.rawValue)!, use: handler)
    }
}
