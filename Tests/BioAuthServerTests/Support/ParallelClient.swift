import BioAuthProtocol
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Synchronization
import Testing

/// Many connections at once to the test server (the HummingbirdTesting client has one), for
/// races that need requests truly in flight together. Answers are checked against openapi.yaml
/// like ``APIClient``'s.
struct ParallelClient: Sendable {
    let port: Int
    private let session: URLSession

    init(port: Int) {
        self.port = port
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    init(_ server: TestServer) throws {
        self.init(port: try #require(server.api.client.port))
    }

    func call(
        _ method: HTTPRequest.Method, _ path: String, json: (any Encodable & Sendable)? = nil, raw: Data? = nil, token: String? = nil,
        headers extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method.rawValue
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try WireJSON.makeEncoder().encode(json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let raw {
            request.httpBody = raw
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers = HTTPFields()
        var headerMap: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String, let field = HTTPFields.Element.Name(name) else { continue }
            headers[field] = value
            headerMap[field.canonicalName] = value
        }
        let answer = APIResponse(status: .init(code: http.statusCode), headers: headers, body: data)
        for problem in OpenAPIContract.shared.problems(method: method.rawValue, path: path, status: http.statusCode, headers: headerMap, body: data) {
            Issue.record("openapi.yaml mismatch: \(problem)", sourceLocation: sourceLocation)
        }
        #expect(http.statusCode < 500, "server error \(http.statusCode) for \(method) \(path)", sourceLocation: sourceLocation)
        return answer
    }
}

/// A logical clock for ordering events across tasks without timing anything.
final class Ticker: Sendable {
    private let value = Mutex(0)
    func tick() -> Int { value.withLock { $0 += 1; return $0 } }
}
