import BioAuthKit
import Foundation

@testable import BioAuthSimulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of a BioAuth server that ``BioAuthClient/accessToken()`` talks to: password sign-in
/// (a new session token each time), re-authentication, sign-out, and `POST /v1/sessions/current/access-token`, which
/// counts its requests, answers `401 invalid_session` for a session that ended, and can hold its
/// answers (made when the request arrived) until released.
final class TokenServer: HTTPTransport, @unchecked Sendable {
    struct State {
        var sessions = 0
        var ended: Set<String> = []
        /// Bearer tokens of the access-token requests, in order.
        var tokenRequests: [String] = []
        var held = false
        var lifetime = 300
        /// How far the server's clock is ahead of the device's date (its `expires_at`).
        var clockAhead: TimeInterval = 0
    }

    private let state = Locked(State())

    func with<T>(_ body: (inout State) -> T) -> T { state.withLock(body) }

    var tokenRequestCount: Int { with { $0.tokenRequests.count } }

    /// Ends `session` on the server, as another device's sign-out-everywhere would.
    func end(_ session: String) { with { _ = $0.ended.insert(session) } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let bearer = request.value(forHTTPHeaderField: "Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
        let route = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
        let (status, answer): (Int, (any Encodable)?) = with { respond(route, bearer, &$0) }
        if route == "POST /v1/sessions/current/access-token" {
            while with({ $0.held }) { try await Task.sleep(nanoseconds: 2_000_000) }
        }
        let data = try answer.map { try WireJSON.makeEncoder().encode($0) } ?? Data()
        return (data, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!)
    }

    static let user = User(id: "usr_1", username: "alice", createdAt: Date(timeIntervalSince1970: 1_700_000_000))

    private func session(_ now: Date, stepUpAt: Date? = nil) -> Session {
        Session(
            id: "ses_1",
            userID: Self.user.id,
            createdAt: now,
            expiresAt: now + 3600,
            authentication: .init(method: .password),
            stepUpAt: stepUpAt
        )
    }

    private func respond(_ route: String, _ bearer: String?, _ state: inout State) -> (Int, (any Encodable)?) {
        let now = Date()
        switch route {
        case "POST /v1/sessions/password":
            state.sessions += 1
            return (200, SignInResponse(sessionToken: "session_\(state.sessions)", session: session(now), user: Self.user))
        case "POST /v1/sessions/current/reauthenticate":
            return (200, CurrentSessionResponse(session: session(now, stepUpAt: now), user: Self.user))
        case "DELETE /v1/sessions/current":
            if let bearer { state.ended.insert(bearer) }
            return (204, nil)
        case "POST /v1/sessions/current/access-token":
            state.tokenRequests.append(bearer ?? "")
            guard let bearer, bearer.hasPrefix("session_"), !state.ended.contains(bearer) else {
                return (401, ErrorResponse(code: .invalidSession, message: "Session is invalid or expired."))
            }
            let lifetime = state.lifetime
            let token = "token_\(state.tokenRequests.count)_for_\(bearer)"
            return (200, AccessTokenResponse(accessToken: token, expiresIn: lifetime, expiresAt: now + state.clockAhead + Double(lifetime)))
        default:
            return (404, nil)
        }
    }
}
