import BioAuthProtocol
import Crypto
import Foundation
import Testing

/// An access token taken apart by hand and checked against a key set with swift-crypto: a path
/// independent of the server's signing code (the JWS parsed here, the key rebuilt from its JWK,
/// the signature verified by swift-crypto's own verification).
struct ParsedAccessToken {
    var header: [String: Any]
    var claims: [String: Any]
    var signingInput: Data
    var signature: Data

    /// The token's three parts decoded, or `nil` when it is not a compact JWS of JSON objects.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerBytes) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimBytes) as? [String: Any]
        else { return nil }
        self.header = header
        self.claims = claims
        self.signingInput = Data((parts[0] + "." + parts[1]).utf8)
        self.signature = signature
    }

    var kid: String? { header["kid"] as? String }

    /// Whether a key of `keySet` (a JWKS, as JSON) with the token's `kid` verifies its signature.
    func verifies(with keySet: [String: Any]) -> Bool {
        guard let keys = keySet["keys"] as? [[String: Any]], let jwk = keys.first(where: { $0["kid"] as? String == kid }),
            let x = (jwk["x"] as? String).flatMap(Base64URL.decode)
        else { return false }
        switch (header["alg"] as? String, jwk["kty"] as? String, jwk["crv"] as? String) {
        case ("ES256", "EC", "P-256"):
            guard let y = (jwk["y"] as? String).flatMap(Base64URL.decode), let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: self.signature)
            else { return false }
            return key.isValidSignature(signature, for: signingInput)
        case ("EdDSA", "OKP", "Ed25519"):
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return false }
            return key.isValidSignature(signature, for: signingInput)
        default:
            return false
        }
    }
}

extension ContractClient {
    /// `POST /v1/sessions/current/access-token` for the session of `token`: the answer.
    func accessToken(token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> AccessTokenResponse {
        try await expect(.ok, AccessTokenResponse.self, .post, Endpoint.createAccessToken.path(), token: token, sourceLocation: sourceLocation)
    }

    /// The key set, as JSON.
    func keySet(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let answer = try await call(.get, Endpoint.getKeySet.path(), sourceLocation: sourceLocation)
        #expect(answer.status == .ok, sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], sourceLocation: sourceLocation)
    }

    /// The kids of the key set, in its order.
    func keySetKids(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        ((try await keySet(sourceLocation: sourceLocation)["keys"] as? [[String: Any]]) ?? []).compactMap { $0["kid"] as? String }
    }
}
