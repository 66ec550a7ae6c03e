import Foundation
import SQLKit

/// The `attestation_challenges` table: the random bytes a device key is made with, bound to the
/// user and session that asked; consumed by deletion (one `DELETE … RETURNING`, so of concurrent
/// registrations exactly one gets it).
enum AttestationChallengeTable {
    /// Stores a new challenge.
    static func insert(_ db: any StatementDatabase, challenge: Data, userID: String, sessionID: String, now: Date, expiresAt: Date) async throws {
        try await db.raw(
            """
            INSERT INTO attestation_challenges (challenge, user_id, session_id, created_at, expires_at)
            VALUES (\(bind: challenge), \(bind: userID), \(bind: sessionID), \(bind: now.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            """
        ).run()
    }

    /// How many unexpired challenges the user's session holds.
    static func live(_ db: any StatementDatabase, userID: String, sessionID: String, now: Date) async throws -> Int {
        try await db.raw(
            """
            SELECT COUNT(*) AS live FROM attestation_challenges
            WHERE user_id = \(bind: userID) AND session_id = \(bind: sessionID) AND expires_at > \(bind: now.millisecondsSince1970)
            """
        ).first()?.decode(column: "live", as: Int.self) ?? 0
    }

    /// Deletes `challenge` if the session issued it; whether it was there and had not expired.
    static func consume(_ db: any StatementDatabase, challenge: Data, userID: String, sessionID: String, now: Date) async throws -> Bool {
        guard
            let row = try await db.raw(
                """
                DELETE FROM attestation_challenges
                WHERE challenge = \(bind: challenge) AND user_id = \(bind: userID) AND session_id = \(bind: sessionID) RETURNING expires_at
                """
            ).first()
        else { return false }
        return try row.decode(column: "expires_at", as: Int64.self) > now.millisecondsSince1970
    }

    /// Deletes the challenges expired by `now`; returns how many.
    static func purgeExpired(_ db: any StatementDatabase, now: Int64) async throws -> Int {
        try await db.raw("DELETE FROM attestation_challenges WHERE expires_at <= \(bind: now) RETURNING challenge").all().count
    }
}
