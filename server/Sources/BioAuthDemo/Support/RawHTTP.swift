import BioAuthKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP call outside BioAuthKit: what the bad app and the attacker use.
struct RawHTTP: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport

    /// Calls `endpoint` (with `id` where its path has one), sending `json` (if any) with `token`
    /// (if any); returns the status and body.
    @discardableResult
    func call(_ endpoint: Endpoint, id: String? = nil, json: [String: String]? = nil, token: String? = nil) async throws -> (status: Int, body: Data)
    {
        try await call(endpoint, id: id, object: json, token: token)
    }

    /// Calls `endpoint` with any JSON object (nested ones too).
    @discardableResult
    func call(_ endpoint: Endpoint, id: String? = nil, object json: [String: Any]?, token: String? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + endpoint.path(id))!)
        request.httpMethod = endpoint.method.rawValue
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await transport.send(request)
        return (response.statusCode, data)
    }

    /// Calls `endpoint` with a contract body, encoded as the contract encodes it.
    @discardableResult
    func call(_ endpoint: Endpoint, id: String? = nil, body: some Encodable, token: String? = nil) async throws -> (status: Int, body: Data) {
        let object = try JSONSerialization.jsonObject(with: WireJSON.makeEncoder().encode(body)) as? [String: Any]
        return try await call(endpoint, id: id, object: object, token: token)
    }

    /// The contract error code of an answer, if it is one.
    static func errorCode(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
    }
}
