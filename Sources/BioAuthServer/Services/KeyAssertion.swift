import BioAuthProtocol
import Foundation
import SQLKit

/// A device key's answer to an authentication challenge, read and parsed, not yet verified or
/// consumed. The same answer serves a biometric sign-in, a PIN sign-in (with a PIN key) and a
/// re-authentication; which one a challenge may complete is decided by its registration's kind.
package struct KeyAssertion: Sendable {
    var challengeID: String
    var registrationID: String
    var userID: String
    var key: DevicePublicKey
    var signature: DeviceSignature
    var message: Data

    /// Whether the device key signed this challenge's message.
    var signatureIsValid: Bool { key.isValidSignature(signature, for: message) }

    /// Reads challenge `challengeID` with its registration, which must be of `kind` (and belong to
    /// `userID` when given), and parses the signature. It only reads: a malformed signature is bad
    /// input and changes nothing; an unknown or foreign challenge is `challenge_invalid`.
    static func read(
        _ database: any DatabaseProvider, challengeID: String, signature: Base64URLBytes, kind: RegistrationKind,
        userID: String? = nil, relyingPartyID: String
    ) async throws -> KeyAssertion {
        guard let row = try await database.withDatabase({ db in
            try await db.raw("""
                SELECT c.registration_id AS registration_id, c.challenge AS challenge,
                       r.user_id AS user_id, r.algorithm AS algorithm, r.public_key AS public_key
                FROM challenges c JOIN registrations r ON r.id = c.registration_id
                WHERE c.id = \(bind: challengeID) AND c.ceremony = \(bind: Int(Ceremony.authentication.rawValue))
                  AND r.kind = \(bind: kind.rawValue)
                """).first()
        }) else {
            throw ChallengeStore.invalid
        }
        let owner = try row.decode(column: "user_id", as: String.self)
        if let userID, userID != owner { throw ChallengeStore.invalid }
        let registrationID = try row.decode(column: "registration_id", as: String.self)
        let key = try StoredRegistration.publicKey(from: row)
        return KeyAssertion(
            challengeID: challengeID, registrationID: registrationID, userID: owner, key: key,
            signature: try SignatureRules.parse(signature, for: key.algorithm),
            message: try SignatureRules.message(.authentication, relyingPartyID: relyingPartyID, registrationID: registrationID,
                                                challenge: try row.decode(column: "challenge", as: Data.self)))
    }

    /// Consumes the challenge inside the caller's transaction; `false` when it was already spent
    /// or expired. Call it whatever the signature's verdict: a bad signature spends it too.
    func consume(_ db: any SQLDatabase, now: Date) async throws -> Bool {
        try await ChallengeStore.consume(db, id: challengeID, ceremony: .authentication, now: now) != nil
    }

    /// Marks the registration used by a verified answer; `false` when it was revoked meanwhile.
    func markUsed(_ db: any SQLDatabase, now: Date) async throws -> Bool {
        try await !db.raw("""
            UPDATE registrations SET last_used_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: registrationID) AND status = 'active' RETURNING id
            """).all().isEmpty
    }
}
