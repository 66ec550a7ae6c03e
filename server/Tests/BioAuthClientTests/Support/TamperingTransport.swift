import BioAuthKit
import BioAuthProtocol
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A man in the middle between the server and the app: it passes every request over URLSession
/// and rewrites each confirmation in the answers to `GET /v1/confirmations` with `tamper`.
final class TamperingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var tamper: @Sendable (inout Confirmation) -> Void = { _ in }

    /// From now on, confirmations listed reach the app rewritten by `change`.
    func rewrite(_ change: @escaping @Sendable (inout Confirmation) -> Void) {
        lock.withLock { tamper = change }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await URLSessionTransport().send(request)
        guard request.httpMethod == "GET", request.url?.path == Endpoint.listConfirmations.template, response.statusCode == 200,
            var list = try? WireJSON.makeDecoder().decode(ConfirmationList.self, from: data)
        else { return (data, response) }
        let change = lock.withLock { tamper }
        for index in list.confirmations.indices { change(&list.confirmations[index]) }
        return (try WireJSON.makeEncoder().encode(list), response)
    }
}
