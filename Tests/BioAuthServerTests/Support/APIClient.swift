import BioAuthProtocol
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// An answer from the server, already checked against `openapi.yaml`.
struct APIResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try WireJSON.makeDecoder().decode(T.self, from: body)
    }

    /// The error code, when the body is the contract's error shape.
    var errorCode: ErrorCode? {
        try? decode(ErrorResponse.self).error.code
    }
}

/// JSON over real HTTP to the test server. Every response is validated against the OpenAPI
/// document (documented status, documented headers, schema-valid body); a mismatch fails the test.
struct APIClient: Sendable {
    let client: any TestClientProtocol
    /// Every `operationId status` this client has seen answered.
    let observed = ObservedStatuses()

    /// Sends a request with a JSON body (or raw bytes) and an optional bearer token.
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ path: String, json: (any Encodable & Sendable)? = nil, raw: Data? = nil,
        token: String? = nil, headers extra: HTTPFields = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(data: try WireJSON.makeEncoder().encode(json))
            headers[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(data: raw)
            headers[.contentType] = "application/json"
        }
        let response = try await client.executeRequest(uri: path, method: method, headers: headers, body: body)
        let answer = APIResponse(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        let headerMap = Dictionary(answer.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
        for problem in OpenAPIContract.shared.problems(method: method.rawValue, path: path, status: Int(answer.status.code), headers: headerMap, body: answer.body) {
            Issue.record("openapi.yaml mismatch: \(problem)", sourceLocation: sourceLocation)
        }
        if let operation = OpenAPIContract.shared.operation(method: method.rawValue, path: path) {
            observed.insert("\(operation.operationID) \(answer.status.code)")
        }
        #expect(answer.status.code < 500, "server error \(answer.status) for \(method) \(path): \(String(decoding: answer.body, as: UTF8.self))", sourceLocation: sourceLocation)
        return answer
    }

    /// Calls and expects a contract error.
    @discardableResult
    func expectError(
        _ code: ErrorCode, _ method: HTTPRequest.Method, _ path: String, json: (any Encodable & Sendable)? = nil, raw: Data? = nil,
        token: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        let answer = try await call(method, path, json: json, raw: raw, token: token, sourceLocation: sourceLocation)
        #expect(answer.errorCode == code, "expected \(code.rawValue), got \(answer.status) \(String(decoding: answer.body, as: UTF8.self))", sourceLocation: sourceLocation)
        return answer
    }

    /// Calls, expects `status`, and decodes the body.
    @discardableResult
    func expect<T: Decodable>(
        _ status: HTTPResponse.Status, _ type: T.Type, _ method: HTTPRequest.Method, _ path: String,
        json: (any Encodable & Sendable)? = nil, token: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> T {
        let answer = try await call(method, path, json: json, token: token, sourceLocation: sourceLocation)
        try #require(answer.status == status, "expected \(status), got \(answer.status) \(String(decoding: answer.body, as: UTF8.self))", sourceLocation: sourceLocation)
        return try answer.decode(T.self)
    }
}

/// The `operationId status` pairs a test has seen.
final class ObservedStatuses: Sendable {
    private let pairs = Mutex<Set<String>>([])
    func insert(_ pair: String) { pairs.withLock { _ = $0.insert(pair) } }
    var all: Set<String> { pairs.withLock { $0 } }
}
