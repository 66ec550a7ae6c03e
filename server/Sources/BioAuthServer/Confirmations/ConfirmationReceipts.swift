import BioAuthProtocol
import Foundation

/// The receipt of an approved confirmation: a compact JWS (`typ` `bioauth-receipt+jwt`, so it
/// never passes for an access token) signed with the access-token signing keys, so that the bank
/// can later prove what was approved, by which credential and when, from the key set alone. Its
/// `evidence` holds the device's own signature and the exact message it covers.
struct ConfirmationReceipts: Sendable {
    let keys: SigningKeyStore
    /// `iss`.
    let issuer: String

    /// The JWS header's `typ`.
    static let type = "bioauth-receipt+jwt"

    /// What the receipt says of the credential that approved: its `credential` and `evidence`
    /// members, in order.
    struct Proof: Sendable {
        var factor: AuthenticationMethod
        var credential: [(String, JOSEJSON)]
        var evidence: [(String, JOSEJSON)]
        /// Whether an App Attest assertion was checked.
        var appAttest: Bool

        /// A device key's proof: its registration, public key and algorithm; the message and the
        /// signature over it.
        static func deviceKey(_ assertion: KeyAssertion, factor: AuthenticationMethod, signature: Data, appAttest: Bool) -> Proof {
            Proof(
                factor: factor,
                credential: [
                    ("registration_id", .string(assertion.registrationID)),
                    ("public_key", .string(Base64URL.encode(assertion.key.canonicalBytes))),
                    ("algorithm", .string(assertion.key.algorithm.rawValue)),
                ],
                evidence: [("message", .string(Base64URL.encode(assertion.message))), ("signature", .string(Base64URL.encode(signature)))],
                appAttest: appAttest
            )
        }
    }

    /// The receipt of `confirmation` approved with `proof` at `now`.
    func receipt(for confirmation: StoredConfirmation, proof: Proof, at now: Date) async throws -> String {
        let key = try await keys.signer()
        return try key.compactJWS(type: Self.type, payload: Self.claims(confirmation, proof: proof, issuer: issuer, at: now))
    }

    /// The claims: `iss`, `sub`, `iat`, `jti`, `confirmation`, `factor`, `credential`, `evidence`
    /// and `app_attest` when it was checked.
    static func claims(_ confirmation: StoredConfirmation, proof: Proof, issuer: String, at now: Date) throws -> JOSEJSON {
        let stated: [(String, JOSEJSON)] = [
            ("id", .string(confirmation.id)), ("kind", .string(confirmation.details.kind.rawValue)),
            ("details", .object(try fields(confirmation))), ("details_hash", .string(Base64URL.encode(confirmation.detailsHash))),
        ]
        var claims: [(String, JOSEJSON)] = [
            ("iss", .string(issuer)), ("sub", .string(confirmation.userID)), ("iat", .integer(Int64(now.timeIntervalSince1970.rounded(.down)))),
            ("jti", .string(confirmation.id)), ("confirmation", .object(stated)), ("factor", .string(proof.factor.rawValue)),
            ("credential", .object(proof.credential)), ("evidence", .object(proof.evidence)),
        ]
        if proof.appAttest { claims.append(("app_attest", .bool(true))) }
        return .object(claims)
    }

    /// The details' fields by their wire names, sorted, as the canonical form holds them (without
    /// `confirmation_id`).
    private static func fields(_ confirmation: StoredConfirmation) throws -> [(String, JOSEJSON)] {
        let members = try JSONDecoder().decode([String: String].self, from: Data(confirmation.canonical.utf8))
        return members.filter { $0.key != "confirmation_id" }.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }
    }
}
