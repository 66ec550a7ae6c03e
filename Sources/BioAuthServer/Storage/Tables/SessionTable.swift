import BioAuthProtocol
import Foundation
import SQLKit

/// The `sessions` table: every statement that reads or writes it, inside the caller's
/// transaction or connection. Only the SHA-256 of a token is stored; a session is found by the id
/// its token carries (``SessionToken``).
enum SessionTable {
    /// Inserts a session whose token hashes to `tokenDigest`.
    static func insert(_ db: any StatementDatabase, _ session: Session, tokenDigest: Data) async throws {
        try await db.run("""
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at,
                                  password_change_required, legacy_token)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0)
            """,
            .text(session.id), .text(session.userID), .bytes(tokenDigest), .text(session.authentication.method.rawValue),
            .text(session.authentication.registrationID), .text(session.authentication.passkeyID), .time(session.createdAt),
            .time(session.expiresAt), .time(session.authenticatedAt), .integer(session.passwordChangeRequired ? 1 : 0))
    }

    /// The caller a live session's token names, if any.
    static func caller(_ db: any StatementDatabase, _ lookup: SessionToken.Lookup, now: Date) async throws -> Caller? {
        let row = switch lookup {
        case .session(let id, let digest): try await db.first(CallerByToken.self, .text(id), .bytes(digest), .time(now))
        case .legacy(let digest): try await db.first(CallerByLegacyToken.self, .bytes(digest), .time(now))
        }
        guard let row else { return nil }
        return Caller(sessionID: try row.text(0), userID: try row.text(1), authenticatedAt: try row.date(2),
                      passwordChangeRequired: try row.integer(3) != 0)
    }

    /// ``caller(_:_:now:)``'s query, run for every authenticated request: the session by its
    /// primary key, if the token's digest is the stored one.
    enum CallerByToken: PreparedStatementText {
        static let name = "bioauth_session_caller_by_token"
        static let sql = """
            SELECT id, user_id, authenticated_at, password_change_required FROM sessions
            WHERE id = $1 AND token_hash = $2 AND revoked_at IS NULL AND expires_at > $3
            """
        static let parameters: [SQLType] = [.text, .bytes, .integer]
    }

    /// ``caller(_:_:now:)``'s query for a token issued before tokens named their session, through
    /// the partial index `sessions_by_legacy_token`, which holds only those sessions.
    enum CallerByLegacyToken: PreparedStatementText {
        static let name = "bioauth_session_caller_by_legacy_token"
        static let sql = """
            SELECT id, user_id, authenticated_at, password_change_required FROM sessions
            WHERE token_hash = $1 AND legacy_token = 1 AND revoked_at IS NULL AND expires_at > $2
            """
        static let parameters: [SQLType] = [.bytes, .integer]
    }

    /// A user's live sessions (or the one with `id`), newest first.
    static func live(_ db: any StatementDatabase, userID: String, id: String? = nil, now: Date) async throws -> [Session] {
        var query = SQLQueryString("""
            SELECT id, user_id, method, registration_id, passkey_id, created_at, expires_at, authenticated_at, password_change_required FROM sessions
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
            """)
        if let id { query.appendInterpolation(unsafeRaw: " AND id = "); query.appendInterpolation(bind: id) }
        query.appendInterpolation(unsafeRaw: " ORDER BY created_at DESC, id")
        return try await db.raw(query).all().map { row in
            Session(
                id: try row.decode(column: "id", as: String.self),
                userID: try row.decode(column: "user_id", as: String.self),
                createdAt: try row.decodeDate(column: "created_at"),
                expiresAt: try row.decodeDate(column: "expires_at"),
                authentication: .init(
                    method: try row.decodeEnum(column: "method", as: AuthenticationMethod.self),
                    registrationID: try row.decode(column: "registration_id", as: String?.self),
                    passkeyID: try row.decode(column: "passkey_id", as: String?.self)),
                authenticatedAt: try row.decodeDate(column: "authenticated_at"),
                passwordChangeRequired: try row.decode(column: "password_change_required", as: Int.self) != 0)
        }
    }

    /// How many sessions are live now.
    static func liveCount(_ db: any StatementDatabase, now: Date) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS live FROM sessions WHERE revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)")
            .first()?.decode(column: "live", as: Int.self) ?? 0
    }

    /// Ends one live session of the user's; whether there was one.
    static func revoke(_ db: any StatementDatabase, id: String, userID: String, now: Date) async throws -> Bool {
        try await !db.raw("""
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: id) AND user_id = \(bind: userID)
              AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
            RETURNING id
            """).all().isEmpty
    }

    /// Ends every live session of a user but `sparing`; returns how many ended.
    static func revokeAll(_ db: any StatementDatabase, userID: String, sparing sessionID: String?, now: Date) async throws -> Int {
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
              AND id <> \(bind: sessionID ?? "")
            RETURNING id
            """).all().count
    }

    /// The credential that signed a session in.
    enum Signer: Sendable {
        /// A device key (biometric or PIN), by registration id.
        case registration(String)
        /// A passkey, by id.
        case passkey(String)
    }

    /// Ends every live session `signer` signed in but `sparing`. They are found through their
    /// owner's live sessions (`sessions_by_user`), so that no index on `passkey_id` has to be
    /// written at every sign-in.
    static func revokeSigned(_ db: any StatementDatabase, by signer: Signer, sparing sessionID: String?, now: Date) async throws {
        let (column, credentials, id) = switch signer {
        case .registration(let id): ("registration_id", "registrations", id)
        case .passkey(let id): ("passkey_id", "passkeys", id)
        }
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = (SELECT user_id FROM \(unsafeRaw: credentials) WHERE id = \(bind: id))
              AND expires_at > \(bind: now.millisecondsSince1970) AND \(unsafeRaw: column) = \(bind: id)
              AND revoked_at IS NULL AND id <> \(bind: sessionID ?? "")
            """).run()
    }

    /// Records a primary authentication on a session.
    static func markAuthenticated(_ db: any StatementDatabase, id: String, now: Date) async throws {
        try await db.raw("UPDATE sessions SET authenticated_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: id)").run()
    }

    /// Lifts a one-time password's restriction from a session.
    static func clearPasswordChangeRequired(_ db: any StatementDatabase, id: String) async throws {
        try await db.raw("UPDATE sessions SET password_change_required = 0 WHERE id = \(bind: id)").run()
    }

    /// Deletes sessions that expired or were revoked at or before `cutoff`; returns how many.
    static func purge(_ db: any StatementDatabase, endedBy cutoff: Int64) async throws -> Int {
        try await db.raw("""
            DELETE FROM sessions
            WHERE expires_at <= \(bind: cutoff) OR (revoked_at IS NOT NULL AND revoked_at <= \(bind: cutoff))
            RETURNING id
            """).all().count
    }
}
