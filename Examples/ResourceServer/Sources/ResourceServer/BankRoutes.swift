import Foundation
import Hummingbird

/// The backend's API, both routes behind a BioAuth access token (`Authorization: Bearer …`):
/// `GET /balance` takes any valid one; `POST /transfer` also needs a recent strong authentication
/// (``StepUpPolicy``). A refusal is `401` with RFC 6750's `WWW-Authenticate` (`invalid_token` and
/// why, or RFC 9470's `insufficient_user_authentication` with the `max_age` to meet).
struct BankRoutes: Sendable {
    /// Checks the tokens.
    let verifier: TokenVerifier
    /// What `POST /transfer` demands.
    let stepUp: StepUpPolicy

    /// Adds the routes to `router`.
    func add(to router: Router<BasicRequestContext>) {
        router.get("/balance") { request, _ in try await balance(request) }
        router.post("/transfer") { request, _ in try await transfer(request) }
    }

    private func balance(_ request: Request) async throws -> Balance {
        let claims = try await authenticate(request)
        return Balance(account: claims.subject.value, amount: "1234.56", currency: "EUR")
    }

    private func transfer(_ request: Request) async throws -> TransferReceipt {
        let claims = try await authenticate(request)
        guard stepUp.isSatisfied(by: claims, now: Date()) else {
            let challenge =
                #"Bearer error="insufficient_user_authentication", "#
                + #"error_description="a strong authentication is needed, at most max_age seconds old", max_age=\#(Int(stepUp.maxAge))"#
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: challenge], message: "insufficient_user_authentication")
        }
        return TransferReceipt(account: claims.subject.value, status: "accepted")
    }

    /// The verified claims of the request's bearer token, else a `401` saying why.
    private func authenticate(_ request: Request) async throws -> AccessTokenClaims {
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: #"Bearer realm="bank""#], message: TokenRejection.missing.rawValue)
        }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        do {
            return try await verifier.verify(token)
        } catch {
            let challenge = #"Bearer error="invalid_token", error_description="\#(error.rawValue)""#
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: challenge], message: error.rawValue)
        }
    }
}

/// `200` of `GET /balance`.
struct Balance: ResponseEncodable {
    /// The BioAuth account id (`sub`).
    var account: String
    /// A made-up balance.
    var amount: String
    /// Its currency.
    var currency: String
}

/// `200` of `POST /transfer`.
struct TransferReceipt: ResponseEncodable {
    /// The BioAuth account id (`sub`).
    var account: String
    /// `accepted`.
    var status: String
}
