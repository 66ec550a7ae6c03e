import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON over HTTP as the contract describes it; every failure becomes a ``BioAuthError``.
struct APIConnection: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport

    struct Empty: Codable, Sendable {}

    /// The detail of a `404` without a contract error.
    static let notFoundDetail = "HTTP 404 without a contract error"

    /// Calls `endpoint` (with `id` where its path has one) and decodes the answer.
    func call<Response: Decodable>(
        _ endpoint: Endpoint,
        id: String? = nil,
        body: (any Encodable & Sendable)? = nil,
        token: String? = nil,
        as type: Response.Type
    ) async throws(BioAuthError) -> Response {
        let data = try await send(endpoint, id: id, body: body, token: token)
        do {
            return try WireJSON.makeDecoder().decode(Response.self, from: data)
        } catch {
            throw .transport("undecodable answer to \(endpoint)")
        }
    }

    /// Calls `endpoint` and decodes the answer, or `nil` when the server answers `404` (with or
    /// without a contract error): a server older than the endpoint.
    func callIfOffered<Response: Decodable>(
        _ endpoint: Endpoint,
        body: (any Encodable & Sendable)? = nil,
        token: String? = nil,
        as type: Response.Type
    ) async throws(BioAuthError) -> Response? {
        let data: Data
        do {
            data = try await send(endpoint, id: nil, body: body, token: token)
        } catch  where error.rejection?.status == 404 || error.detail == Self.notFoundDetail {
            return nil
        }
        do {
            return try WireJSON.makeDecoder().decode(Response.self, from: data)
        } catch {
            throw .transport("undecodable answer to \(endpoint)")
        }
    }

    /// Calls `endpoint` (with `id` where its path has one), ignoring the answer's body.
    func call(_ endpoint: Endpoint, id: String? = nil, body: (any Encodable & Sendable)? = nil, token: String? = nil) async throws(BioAuthError) {
        _ = try await send(endpoint, id: id, body: body, token: token)
    }

    private func send(_ endpoint: Endpoint, id: String?, body: (any Encodable & Sendable)?, token: String?) async throws(BioAuthError) -> Data {
        let path = endpoint.path(id)
        let method = endpoint.method.rawValue
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + path) else { throw .transport("bad URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            guard let data = try? WireJSON.makeEncoder().encode(body) else { throw .transport("cannot encode request body") }
            request.httpBody = data
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw .transport(String(describing: error))
        }
        guard (200..<300).contains(response.statusCode) else {
            guard let answer = try? WireJSON.makeDecoder().decode(ErrorResponse.self, from: data) else {
                throw .transport(response.statusCode == 404 ? Self.notFoundDetail : "HTTP \(response.statusCode) without a contract error")
            }
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
            throw .server(
                ServerRejection(
                    code: answer.error.code,
                    status: response.statusCode,
                    message: answer.error.message,
                    retryAfterSeconds: retryAfter,
                    reason: answer.error.reason
                )
            )
        }
        return data
    }
}
