import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
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

/// JSON over real HTTP to a test server, every answer validated against the OpenAPI document
/// (documented status, documented headers, schema-valid body; a mismatch fails the test): over one
/// keep-alive connection (``APIClient``) or many at once (``ParallelClient``). The shared
/// ceremonies run through it, so their answers are checked too.
protocol ContractClient: CeremonyTransport, Sendable {
    /// Sends one request as it is and returns the answer unread.
    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> (HTTPResponse.Status, HTTPFields, Data)
    /// Where the `operationId status` pairs answered are recorded, if anywhere.
    var observed: ObservedStatuses? { get }
}

extension ContractClient {
    /// Sends a request with a JSON body (or raw bytes) and an optional bearer token.
    @discardableResult
    func call(
        _ method: HTTPRequest.Method,
        _ path: String,
        json: (any Encodable & Sendable)? = nil,
        raw: Data? = nil,
        token: String? = nil,
        headers extra: HTTPFields = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        let body = try json.map { try WireJSON.makeEncoder().encode($0) } ?? raw
        if body != nil { headers[.contentType] = "application/json" }
        let (status, answerHeaders, answerBody) = try await send(method, path, headers: headers, body: body)
        let answer = APIResponse(status: status, headers: answerHeaders, body: answerBody)
        let headerMap = Dictionary(answer.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
        for problem in OpenAPIContract.shared.problems(
            method: method.rawValue,
            path: path,
            status: Int(status.code),
            headers: headerMap,
            body: answerBody
        ) {
            Issue.record("openapi.yaml mismatch: \(problem)", sourceLocation: sourceLocation)
        }
        if let observed, let operation = OpenAPIContract.shared.operation(method: method.rawValue, path: path) {
            observed.insert("\(operation.operationID) \(status.code)")
        }
        // 503 `unavailable` is the contract's answer to load, not a fault; 500 is always a fault.
        #expect(
            status.code < 500 || status == .serviceUnavailable,
            "server error \(status) for \(method) \(path): \(String(decoding: answerBody, as: UTF8.self))",
            sourceLocation: sourceLocation
        )
        return answer
    }

    /// Calls and expects a contract error.
    @discardableResult
    func expectError(
        _ code: ErrorCode,
        _ method: HTTPRequest.Method,
        _ path: String,
        json: (any Encodable & Sendable)? = nil,
        raw: Data? = nil,
        token: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIResponse {
        let answer = try await call(method, path, json: json, raw: raw, token: token, sourceLocation: sourceLocation)
        #expect(
            answer.errorCode == code,
            "expected \(code.rawValue), got \(answer.status) \(String(decoding: answer.body, as: UTF8.self))",
            sourceLocation: sourceLocation
        )
        return answer
    }

    /// Starts registering a new Ed25519 key for `token`'s user and expects contract error `code`.
    func expectRegistrationRefused(_ code: ErrorCode, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await expectError(
            code,
            .post,
            "/v1/biometric/registrations",
            json: StartRegistrationRequest(algorithm: .ed25519, publicKey: SoftwareDeviceKey.ed25519().publicKey()),
            token: token,
            sourceLocation: sourceLocation
        )
    }

    /// The registrations of `token`'s user (`GET /v1/biometric/registrations`, expecting 200).
    func registrationList(token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RegistrationListResponse {
        try await expect(.ok, RegistrationListResponse.self, .get, "/v1/biometric/registrations", token: token, sourceLocation: sourceLocation)
    }

    /// Re-authenticates `token`'s session with the password (`POST /v1/sessions/current/reauthenticate`,
    /// expecting 200).
    @discardableResult
    func reauthenticate(password: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> CurrentSessionResponse {
        try await expect(
            .ok,
            CurrentSessionResponse.self,
            .post,
            "/v1/sessions/current/reauthenticate",
            json: ReauthenticateRequest(password: password),
            token: token,
            sourceLocation: sourceLocation
        )
    }

    /// Calls, expects `status`, and decodes the body.
    @discardableResult
    func expect<T: Decodable>(
        _ status: HTTPResponse.Status,
        _ type: T.Type,
        _ method: HTTPRequest.Method,
        _ path: String,
        json: (any Encodable & Sendable)? = nil,
        token: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> T {
        let answer = try await call(method, path, json: json, token: token, sourceLocation: sourceLocation)
        try #require(
            answer.status == status,
            "expected \(status), got \(answer.status) \(String(decoding: answer.body, as: UTF8.self))",
            sourceLocation: sourceLocation
        )
        return try answer.decode(T.self)
    }

    /// One step of a shared ceremony: any 2xx answer is its success.
    func exchange<Answer: Decodable>(_ request: CeremonyRequest, as answer: Answer.Type) async throws -> Answer {
        let endpoint = request.endpoint
        let response = try await call(
            HTTPRequest.Method(rawValue: endpoint.method.rawValue)!,
            endpoint.path(request.id),
            json: request.body,
            token: request.token
        )
        try #require(
            (200..<300).contains(response.status.code),
            "\(endpoint) answered \(response.status) \(String(decoding: response.body, as: UTF8.self))"
        )
        return try response.decode(Answer.self)
    }
}

/// The `operationId status` pairs a test has seen.
final class ObservedStatuses: Sendable {
    private let pairs = Mutex<Set<String>>([])
    func insert(_ pair: String) { pairs.withLock { _ = $0.insert(pair) } }
    var all: Set<String> { pairs.withLock { $0 } }
}
