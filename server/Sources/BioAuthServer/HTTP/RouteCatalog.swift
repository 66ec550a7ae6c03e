import BioAuthProtocol
import Hummingbird
import Synchronization

/// Every route the server registers, as `(method, path template)`.
///
/// It lets the error middleware tell "no such path" (404 `not_found`) from "path exists, other
/// method" (405 `method_not_allowed`), and lets the tests hold the routes and `openapi.yaml`
/// together.
final class RouteCatalog: Sendable {
    /// One registered route.
    struct Entry: Sendable, Hashable, CustomStringConvertible {
        var method: HTTPRequest.Method
        /// The template, e.g. `/v1/sessions/{id}`.
        var path: String
        var description: String { "\(method.rawValue) \(path)" }
    }

    private let entries = Mutex<[Entry]>([])

    init() {}

    /// Every registered route.
    var all: [Entry] { entries.withLock { $0 } }

    func add(_ method: HTTPRequest.Method, _ path: String) {
        entries.withLock { $0.append(Entry(method: method, path: path)) }
    }

    /// The methods registered for templates that match a concrete request path.
    func methods(matching requestPath: String) -> Set<HTTPRequest.Method> {
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: true)
        return Set(all.filter { entry in
            let template = entry.path.split(separator: "/", omittingEmptySubsequences: true)
            return template.count == segments.count
                && zip(template, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }.map(\.method))
    }
}

extension RouterMethods where Context == BioAuthRequestContext {
    /// Registers the route of one of the contract's endpoints and records it in the catalog.
    @discardableResult
    func route(
        _ endpoint: Endpoint, in catalog: RouteCatalog,
        use handler: @Sendable @escaping (Request, Context) async throws -> Response
    ) -> Self {
        let method = HTTPRequest.Method(rawValue: endpoint.method.rawValue)!
        catalog.add(method, endpoint.template)
        return on(RouterPath(endpoint.template), method: method, use: handler)
    }
}
