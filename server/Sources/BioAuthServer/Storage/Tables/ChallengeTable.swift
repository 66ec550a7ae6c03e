import BioAuthProtocol
import Foundation
import SQLKit

/// The `challenges` table: registration challenges (authentication challenges are not stored:
/// ``AuthenticationChallenge``): 32 random bytes, bound to one ceremony and one registration,
/// valid until `expires_at`, and consumed by deletion (one atomic `DELETE … RETURNING`, so of
/// any number of concurrent attempts exactly one gets the row).
enum ChallengeTable {
    /// Stores a new challenge.
    static func insert(
        _ db: any StatementDatabase,
        id: String = SecureRandom.identifier(.challenge),
        registrationID: String,
        ceremony: Ceremony,
        bytes: Data,
        now: Date,
        expiresAt: Date
    ) async throws {
        try await db.raw(
            """
            INSERT INTO challenges (id, registration_id, ceremony, challenge, created_at, expires_at)
            VALUES (\(bind: id), \(bind: registrationID), \(bind: Int(ceremony.rawValue)), \(bind: bytes),
                    \(bind: now.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            """
        ).run()
    }

    /// Deletes a challenge (by id, or the one of a registration) and returns its bytes if it had
    /// not yet expired. Deleting is the consumption: of concurrent callers, only one gets the row.
    static func consume(
        _ db: any StatementDatabase,
        id: String? = nil,
        registrationID: String? = nil,
        ceremony: Ceremony,
        now: Date
    ) async throws -> Data? {
        var query = SQLQueryString("DELETE FROM challenges WHERE ceremony = \(bind: Int(ceremony.rawValue))")
        if let id {
            query.appendInterpolation(unsafeRaw: " AND id = ")
            query.appendInterpolation(bind: id)
        }
        if let registrationID {
            query.appendInterpolation(unsafeRaw: " AND registration_id = ")
            query.appendInterpolation(bind: registrationID)
        }
        query.appendInterpolation(unsafeRaw: " RETURNING challenge, expires_at")
        let rows = try await db.raw(query).all()
        let now = now.millisecondsSince1970
        for row in rows where try row.decode(column: "expires_at", as: Int64.self) > now {
            return try row.decode(column: "challenge", as: Data.self)
        }
        return nil
    }

    /// Deletes every challenge of a registration.
    static func deleteAll(_ db: any StatementDatabase, registrationID: String) async throws {
        try await db.raw("DELETE FROM challenges WHERE registration_id = \(bind: registrationID)").run()
    }

    /// Deletes the challenges expired by `now`; returns how many.
    static func purgeExpired(_ db: any StatementDatabase, now: Int64) async throws -> Int {
        try await db.raw("DELETE FROM challenges WHERE expires_at <= \(bind: now) RETURNING id").all().count
    }
}
