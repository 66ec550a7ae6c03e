import Foundation

/// `200` of `POST /v1/sessions/current/access-token`: a short-lived access token for the app's own
/// backend, a JWS (compact form) that the backend verifies against the key set at
/// `GET /.well-known/jwks.json` without calling BioAuth.
public struct AccessTokenResponse: Codable, Sendable, Equatable {
    /// The token: `header.payload.signature`, each part base64url. Send it as
    /// `Authorization: Bearer …` to the app's backend; never to BioAuth itself, which takes only the
    /// session token.
    public var accessToken: String
    /// `Bearer`.
    public var tokenType: String
    /// Seconds the token lives from when it was minted. A client counts from when it received the
    /// answer, so a phone whose clock is wrong still knows when to ask again.
    public var expiresIn: Int
    /// When the token expires by the server's clock (its `exp` claim).
    public var expiresAt: Date

    /// Creates the body.
    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int, expiresAt: Date) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
    }
}
