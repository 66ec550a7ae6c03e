import BioAuthKit
import Foundation

/// The app's own backend (Examples/ResourceServer: `GET /balance`, `POST /transfer`), which checks
/// BioAuth's access tokens itself, against the server's key set. Every call carries
/// `Authorization: Bearer <access token>` from ``BioAuthClient/accessToken()``: a cached token
/// while it has a minute left, never a prompt.
struct BankAPI {
    /// What the backend refused.
    enum Refusal: Error {
        /// `401` with `insufficient_user_authentication`: the call needs a more recent strong
        /// authentication (the token's `auth_time`); re-authenticate, then call again.
        case stepUpNeeded
        /// Any other answer outside 2xx.
        case status(Int)
    }

    /// `200` of `GET /balance`.
    struct Balance: Decodable {
        /// The amount, as the backend writes it.
        var amount: String
        /// Its currency.
        var currency: String
    }

    /// Where the backend answers: the example's default on this Mac (the Simulator reaches it as
    /// localhost; a phone needs the Mac's address).
    var baseURL = URL(string: "http://localhost:8090")!
    let client: BioAuthClient

    /// `GET /balance`.
    func balance() async throws -> Balance {
        try JSONDecoder().decode(Balance.self, from: try await send("GET", "/balance"))
    }

    /// `POST /transfer` (the backend demands a recent strong authentication).
    func transfer() async throws {
        _ = try await send("POST", "/transfer")
    }

    private func send(_ method: String, _ path: String) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue(try await client.accessToken().authorizationHeader, forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let challenge = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate") ?? ""
        if status == 401, challenge.contains("insufficient_user_authentication") { throw Refusal.stepUpNeeded }
        guard (200..<300).contains(status) else { throw Refusal.status(status) }
        return data
    }
}
