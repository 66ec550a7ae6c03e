import Foundation

/// A short-lived access token for the app's own backend (``BioAuthClient/accessToken()``): send it
/// as `Authorization: Bearer <token>`; the backend verifies it against the server's key set
/// without calling BioAuth. Never send it to BioAuth itself.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible {
    /// The token (a JWS, compact form).
    public let token: String
    /// When it expires by this device's clock: when the client received it plus its lifetime
    /// (`expires_in`), so a device whose clock is wrong still counts it right.
    public let expiresAt: Date

    /// Creates a value.
    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }

    /// `Bearer <token>`: the `Authorization` header's value.
    public var authorizationHeader: String { "Bearer \(token)" }

    /// The expiry only: a token is never written to a log.
    public var description: String { "AccessToken(expires \(expiresAt))" }
}
