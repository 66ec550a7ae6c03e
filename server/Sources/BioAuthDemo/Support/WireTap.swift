import BioAuthKit
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's network: forwards every request, keeps an abbreviated copy of each exchange for the
/// section being shown, keeps the raw requests so an attacker can replay them, and lets an
/// attack hold a request back before it goes out or rewrite an answer before the app reads it.
package final class WireTap: HTTPTransport, @unchecked Sendable {
    private struct State {
        var exchanges: [WireExchange] = []
        var requests: [URLRequest] = []
        var tokens: [String] = []
        var hold: (@Sendable (URLRequest) async -> Void)?
        var rewrite: (@Sendable (URLRequest, Data) -> Data)?
    }

    private let next: any HTTPTransport
    private let state = Mutex(State())

    /// Taps `next`.
    package init(_ next: any HTTPTransport = URLSessionTransport()) {
        self.next = next
    }

    /// Forwards `request` (after any hold) and records the exchange.
    package func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (hold, rewrite) = state.withLock { state in
            state.requests.append(request)
            return (state.hold, state.rewrite)
        }
        await hold?(request)
        do {
            var (data, response) = try await next.send(request)
            if let rewrite { data = rewrite(request, data) }
            record(request, status: response.statusCode, body: data)
            return (data, response)
        } catch {
            record(request, status: 0, body: nil)
            throw error
        }
    }

    /// Sends a recorded request again, byte for byte, and records the exchange.
    package func replay(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await next.send(request)
        record(request, status: response.statusCode, body: data)
        return (data, response)
    }

    /// The last request whose path ends with `suffix`.
    package func lastRequest(pathSuffix suffix: String) -> URLRequest? {
        state.withLock { $0.requests.last { $0.url?.path.hasSuffix(suffix) == true } }
    }

    /// Runs `hold` before each request from now on (`nil` to stop).
    package func setHold(_ hold: (@Sendable (URLRequest) async -> Void)?) {
        state.withLock { $0.hold = hold }
    }

    /// Passes each answer through `rewrite` from now on, before the app reads it (`nil` to stop):
    /// a man in the middle.
    package func setRewrite(_ rewrite: (@Sendable (URLRequest, Data) -> Data)?) {
        state.withLock { $0.rewrite = rewrite }
    }

    /// The exchanges recorded since the last call, and forgets them.
    package func drain() -> [WireExchange] {
        state.withLock { state in
            defer { state.exchanges = [] }
            return state.exchanges
        }
    }

    /// Every session token the server handed out through this tap (kept in memory, never shown:
    /// the stolen-database attack looks for them in the file).
    package var issuedTokens: [String] { state.withLock { $0.tokens } }

    private func record(_ request: URLRequest, status: Int, body: Data?) {
        let bearer = request.value(forHTTPHeaderField: "Authorization").map { Redaction.abbreviate(String($0.dropFirst("Bearer ".count))) }
        let exchange = WireExchange(
            method: request.httpMethod ?? "GET",
            path: Redaction.abbreviatePath(request.url?.path ?? "?"),
            bearer: bearer,
            request: Redaction.summarize(request.httpBody),
            status: status,
            response: Redaction.summarize(body)
        )
        let token = body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["session_token"] as? String
        state.withLock { state in
            state.exchanges.append(exchange)
            if let token { state.tokens.append(token) }
        }
    }
}
