import BioAuthProtocol
import Foundation
import SQLKit

/// The `webauthn_challenges` table: a passkey ceremony's 32 random bytes, bound to its ceremony
/// (registration or authentication), to the user it is for (a registration's; a username-first
/// sign-in's, whose username may have no account; none for a discoverable sign-in) and, for a
/// registration or a re-authentication, to the session that started it; valid until `expires_at` and consumed by deletion (one `DELETE … RETURNING`, so
/// of concurrent completions exactly one gets the row).
enum WebAuthnChallengeTable {
    /// An open ceremony: its challenge and what it is bound to.
    struct Open: Sendable {
        var challenge: [UInt8]
        var userID: String?
        var sessionID: String?
        /// A username-first sign-in: only the named user's passkey may answer (none, for a
        /// username without an account).
        var usernameFirst: Bool
    }

    /// Stores a new challenge.
    static func insert(
        _ db: any StatementDatabase,
        id: String,
        ceremony: Ceremony,
        userID: String?,
        sessionID: String?,
        usernameFirst: Bool = false,
        challenge: Data,
        now: Date,
        expiresAt: Date
    ) async throws {
        try await db.raw(
            """
            INSERT INTO webauthn_challenges (id, ceremony, user_id, session_id, username_first, challenge, created_at, expires_at)
            VALUES (\(bind: id), \(bind: Int(ceremony.rawValue)), \(bind: userID), \(bind: sessionID), \(bind: usernameFirst ? 1 : 0),
                    \(bind: challenge), \(bind: now.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            """
        ).run()
    }

    /// Reads challenge `id` of `ceremony`, whatever its expiry (consuming decides).
    static func read(_ db: any StatementDatabase, id: String, ceremony: Ceremony) async throws -> Open? {
        guard
            let row = try await db.raw(
                """
                SELECT challenge, user_id, session_id, username_first FROM webauthn_challenges
                WHERE id = \(bind: id) AND ceremony = \(bind: Int(ceremony.rawValue))
                """
            ).first()
        else { return nil }
        return Open(
            challenge: Array(try row.decode(column: "challenge", as: Data.self)),
            userID: try row.decode(column: "user_id", as: String?.self),
            sessionID: try row.decode(column: "session_id", as: String?.self),
            usernameFirst: try row.decode(column: "username_first", as: Int.self) != 0
        )
    }

    /// Deletes challenge `id` of `ceremony`; whether it was there and had not expired. Deleting
    /// is the consumption: whatever the verdict on the response, a challenge serves one attempt.
    static func consume(_ db: any StatementDatabase, id: String, ceremony: Ceremony, now: Date) async throws -> Bool {
        guard let row = try await db.rows(consume, ["challenge_id": .text(id), "ceremony": .integer(Int64(ceremony.rawValue))]).first else {
            return false
        }
        return try row.integer(0) > now.millisecondsSince1970
    }

    /// Deletes challenge `:challenge_id` of ceremony `:ceremony`, returning its expiry: the sign-in's
    /// completion runs it on both databases.
    static let consuming = "DELETE FROM webauthn_challenges WHERE id = :challenge_id AND ceremony = :ceremony RETURNING expires_at"

    /// ``consuming`` alone.
    static let consume = NamedSQL(consuming)

    /// Deletes the challenges expired by `now`; returns how many.
    static func purgeExpired(_ db: any StatementDatabase, now: Int64) async throws -> Int {
        try await db.raw("DELETE FROM webauthn_challenges WHERE expires_at <= \(bind: now) RETURNING id").all().count
    }
}
