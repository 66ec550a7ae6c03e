import Foundation
import JWTKit

/// Decides whether a bearer token is a BioAuth access token for this backend, in the order that
/// refuses forgeries before any key is looked up: the header's `typ` and `alg`, the key its `kid`
/// names in the key set (bound to one algorithm), the signature (jwt-kit), then `iss`, `aud`,
/// `exp` and `nbf` (jwt-kit's claim checks, with ``leeway`` for clock skew).
struct TokenVerifier: Sendable {
    /// BioAuth's keys.
    let keySet: KeySet
    /// The only `iss` accepted.
    let issuer: String
    /// The `aud` value that must be present.
    let audience: String
    /// Clock skew tolerated on `exp` and `nbf`.
    let leeway: TimeInterval
    /// Now.
    var clock: @Sendable () -> Date = { Date() }

    /// The token's claims if every check passes.
    func verify(_ token: String) async throws(TokenRejection) -> AccessTokenClaims {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: AccessTokenClaims.self).header
        } catch {
            throw .malformed
        }
        // RFC 9068 §4: an access token says so, so that an ID token or another JWT signed with
        // the same keys is not taken for one.
        guard let type = header.typ?.lowercased(), type == "at+jwt" || type == "application/at+jwt" else { throw .wrongType }
        guard let algorithm = header.alg, KeySet.allowedAlgorithms.contains(algorithm) else { throw .algorithmNotAllowed }
        guard let kid = header.kid, let key = await keySet.key(for: kid) else { throw .unknownKey }
        guard key.algorithm == algorithm else { throw .algorithmNotAllowed }
        let claims: AccessTokenClaims
        do {
            claims = try await key.collection.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw .badSignature
        }
        try check(claims)
        return claims
    }

    private func check(_ claims: AccessTokenClaims) throws(TokenRejection) {
        guard claims.issuer.value == issuer else { throw .wrongIssuer }
        do { try claims.audience.verifyIntendedAudience(includes: audience) } catch { throw .wrongAudience }
        let now = clock()
        do { try claims.expiration.verifyNotExpired(currentDate: now.addingTimeInterval(-leeway)) } catch { throw .expired }
        do { try claims.notBefore?.verifyNotBefore(currentDate: now.addingTimeInterval(leeway)) } catch { throw .notYetValid }
    }
}

/// Why a bearer token was refused: the `error_description` of the 401's `WWW-Authenticate`.
enum TokenRejection: String, Error {
    case missing = "no bearer token"
    case malformed = "not a JWS in compact form"
    case wrongType = "typ is not at+jwt"
    case algorithmNotAllowed = "alg is not allowed"
    case unknownKey = "kid is not in the key set"
    case badSignature = "the signature does not verify"
    case wrongIssuer = "iss is not the issuer"
    case wrongAudience = "aud does not include this service"
    case expired = "the token has expired"
    case notYetValid = "the token is not valid yet"
}
