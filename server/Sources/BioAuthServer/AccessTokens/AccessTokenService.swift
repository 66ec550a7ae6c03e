import BioAuthProtocol
import Foundation

/// Access tokens for an app's own backend: minted for a live session from what the caller's
/// lookup read of it (no further read, no write), signed by the fleet's current key; the key set
/// that verifies them; and the metadata that names both.
struct AccessTokenService: Sendable {
    let time: TimeSource
    let keys: SigningKeyStore
    /// `iss`.
    let issuer: String
    /// `aud`.
    let audiences: [String]
    /// How long a token lives.
    let lifetime: Duration
    /// Whether passkeys must verify their user (a passkey factor then counts as `user`).
    let passkeysVerifyUser: Bool

    /// A token for the caller's session (live when its lookup read it): a compact JWS with `typ`
    /// `at+jwt`.
    func mint(for caller: Caller) async throws -> AccessTokenResponse {
        let now = time.now()
        let facts = caller.facts
        let key = try await keys.signer()
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let seconds = Int64(lifetime.components.seconds)
        let claims = AccessTokenClaims(
            issuer: issuer,
            subject: caller.userID,
            audiences: audiences,
            issuedAt: issuedAt,
            expiresAt: issuedAt + seconds,
            tokenID: Base64URL.encode(SecureRandom.bytes(16)),
            sessionID: caller.sessionID,
            methods: AccessTokenClaims.methods(
                factors: facts.factors,
                passkeyBackupEligible: facts.passkeyBackupEligible,
                passkeyVerifiesUser: passkeysVerifyUser
            ),
            authTime: Int64(facts.authenticatedAt.timeIntervalSince1970.rounded(.down)),
            stepUpAt: facts.stepUpAt.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        )
        return AccessTokenResponse(
            accessToken: try key.compactJWS(type: "at+jwt", payload: claims.json),
            expiresIn: Int(seconds),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.expiresAt))
        )
    }

    /// The key set (RFC 7517): every published key's public JWK.
    func keySet() async throws -> JOSEJSON {
        let snapshot = try await keys.current()
        let jwks = SigningKeySchedule.published(snapshot.stored, at: time.now()).compactMap { stored -> JOSEJSON? in
            guard let algorithm = AccessTokenAlgorithm(rawValue: stored.algorithm) else { return nil }
            return TokenSigningKey.publicJWK(algorithm: algorithm, publicKey: stored.publicKey, kid: stored.kid)
        }
        return .object([("keys", .array(jwks))])
    }

    /// The authorization-server metadata (RFC 8414): the issuer and where its keys are. No OAuth
    /// flow is offered, so the response and grant types it supports are none.
    var metadata: JOSEJSON {
        .object([
            ("issuer", .string(issuer)), ("jwks_uri", .string(issuer + Endpoint.getKeySet.template)),
            ("response_types_supported", .array([])), ("grant_types_supported", .array([])),
        ])
    }
}
