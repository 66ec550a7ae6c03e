import Foundation
import JWTKit

/// The claims of a BioAuth access token that this backend reads. The registered ones (RFC 7519,
/// RFC 9068) are required; the rest may be absent.
struct AccessTokenClaims: JWTPayload {
    /// Who issued it: must be the configured issuer.
    var issuer: IssuerClaim
    /// The account id.
    var subject: SubjectClaim
    /// Whom it is for: must include this backend's audience.
    var audience: AudienceClaim
    /// When it was minted.
    var issuedAt: IssuedAtClaim
    /// Not valid before this moment.
    var notBefore: NotBeforeClaim?
    /// Not valid from this moment on.
    var expiration: ExpirationClaim
    /// The token's unique id.
    var id: IDClaim
    /// The BioAuth session it was minted for.
    var sessionID: String?
    /// How the user authenticated (RFC 8176 values: `pwd`, `hwk`, `user`, `face`, `pin`, …).
    var authenticationMethods: [String]?
    /// When the session was created by signing in.
    var authenticatedAt: Date?
    /// When the session last proved a strong factor (password, biometric key, passkey); absent if
    /// it never did (a PIN sign-in).
    var stepUpAt: Date?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case issuedAt = "iat"
        case notBefore = "nbf"
        case expiration = "exp"
        case id = "jti"
        case sessionID = "sid"
        case authenticationMethods = "amr"
        case authenticatedAt = "auth_time"
        case stepUpAt = "step_up_at"
    }

    /// jwt-kit calls this after the signature verified. The claims that need this backend's
    /// settings (issuer, audience, leeway) are checked by ``TokenVerifier`` right after.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
