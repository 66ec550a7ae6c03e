import BioAuthProtocol
import Foundation
import Hummingbird
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many connections at once to the test server (the HummingbirdTesting client has one), for
/// races that need requests truly in flight together. Answers are checked against openapi.yaml
/// like ``APIClient``'s.
struct ParallelClient: ContractClient {
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
        self.init(port: server.loopback.port)
    }

    /// No record of statuses: these clients race, they do not tour the contract.
    var observed: ObservedStatuses? { nil }

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> (HTTPResponse.Status, HTTPFields, Data)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method.rawValue
        for field in headers { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var answerHeaders = HTTPFields()
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String, let field = HTTPFields.Element.Name(name) else { continue }
            answerHeaders[field] = value
        }
        return (HTTPResponse.Status(code: http.statusCode), answerHeaders, data)
    }
}

/// A logical clock for ordering events across tasks without timing anything.
final class Ticker: Sendable {
    private let value = Mutex(0)
    func tick() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
