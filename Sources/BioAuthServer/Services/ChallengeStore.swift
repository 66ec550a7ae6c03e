import BioAuthProtocol
import Foundation
import SQLKit

/// Challenges in the database: 32 random bytes, bound to one ceremony and one registration,
/// valid until `expires_at`, and consumed by deletion (one atomic `DELETE … RETURNING`, so of
/// any number of concurrent attempts exactly one gets the row).
enum ChallengeStore {
    /// Stores a new challenge.
    static func insert(
        _ db: any SQLDatabase, id: String = SecureRandom.identifier(.challenge), registrationID: String, ceremony: Ceremony,
        bytes: Data, now: Date, expiresAt: Date
    ) async throws {
        try await db.raw("""
            INSERT INTO challenges (id, registration_id, ceremony, challenge, created_at, expires_at)
            VALUES (\(bind: id), \(bind: registrationID), \(bind: Int(ceremony.rawValue)), \(bind: bytes),
                    \(bind: now.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            """).run()
    }

    /// Deletes a challenge (by id, or the one of a registration) and returns its bytes if it had
    /// not yet expired. Deleting is the consumption: of concurrent callers, only one gets the row.
    static func consume(
        _ db: any SQLDatabase, id: String? = nil, registrationID: String? = nil, ceremony: Ceremony, now: Date
    ) async throws -> Data? {
        var query = SQLQueryString("DELETE FROM challenges WHERE ceremony = \(bind: Int(ceremony.rawValue))")
        if let id { query.appendInterpolation(unsafeRaw: " AND id = "); query.appendInterpolation(bind: id) }
        if let registrationID { query.appendInterpolation(unsafeRaw: " AND registration_id = "); query.appendInterpolation(bind: registrationID) }
        query.appendInterpolation(unsafeRaw: " RETURNING challenge, expires_at")
        let rows = try await db.raw(query).all()
        let now = now.millisecondsSince1970
        for row in rows where try row.decode(column: "expires_at", as: Int64.self) > now {
            return try row.decode(column: "challenge", as: Data.self)
        }
        return nil
    }

    /// The answer to every unknown, expired, spent or foreign challenge alike.
    static var invalid: APIError {
        APIError(.challengeInvalid, "The challenge is unknown, expired, already used or not for this ceremony.")
    }
}

/// The checks every signed answer goes through before the database is asked anything.
enum SignatureRules {
    /// Parses a signature strictly for `algorithm`; a malformed one is `400 invalid_signature_encoding`.
    static func parse(_ signature: Base64URLBytes, for algorithm: SignatureAlgorithm) throws -> DeviceSignature {
        do {
            return try DeviceSignature(algorithm: algorithm, bytes: signature.data)
        } catch {
            throw APIError(.invalidSignatureEncoding, "signature is not a well-formed \(algorithm.rawValue) signature: \(error.reason).")
        }
    }

    /// The exact bytes the device signed.
    static func message(_ ceremony: Ceremony, relyingPartyID: String, registrationID: String, challenge: Data) throws -> Data {
        do {
            return try SignedMessage(ceremony: ceremony, relyingPartyID: relyingPartyID, registrationID: registrationID, challenge: challenge).encoded()
        } catch {
            throw APIError(.challengeInvalid, "The challenge cannot be answered.")
        }
    }

    /// The answer to a well-formed signature that does not verify.
    static var invalid: APIError {
        APIError(.signatureInvalid, "The signature does not verify with the registered key.")
    }
}
