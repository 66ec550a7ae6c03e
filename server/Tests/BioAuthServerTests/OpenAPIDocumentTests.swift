import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// The server and openapi.yaml describe the same API. Responses are checked against the document
/// in every test (see `APIClient`); these tests check the route set and the served document.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    @Test("every documented operation is a route and every route is documented")
    func routesMatchDocument() async throws {
        try await TestServer.run { server in
            let routes = Set(
                server.server.makeRouter().routes.map { "\($0.method.rawValue) /" + $0.path.description.split(separator: "/").joined(separator: "/") }
            )
            let documented = Set(OpenAPIContract.shared.operations.map { "\($0.method) \($0.path)" })
            #expect(
                routes == documented,
                "only in server: \(routes.subtracting(documented).sorted()); only in document: \(documented.subtracting(routes).sorted())"
            )
            #expect(documented.count == 48)
        }
    }

    @Test("GET /openapi.yaml serves the repository's document byte for byte")
    func servesDocument() async throws {
        try await TestServer.run { server in
            let answer = try await server.api.call(.get, "/openapi.yaml")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/yaml")
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/BioAuthServer/Resources/openapi.yaml")
            #expect(answer.body == (try Data(contentsOf: file)))
        }
    }

    @Test("the health check answers")
    func health() async throws {
        try await TestServer.run { server in
            let answer = try await server.api.call(.get, "/health")
            #expect(answer.status == .ok)
            #expect(String(decoding: answer.body, as: UTF8.self) == #"{"status":"ok"}"#)
        }
    }
}
