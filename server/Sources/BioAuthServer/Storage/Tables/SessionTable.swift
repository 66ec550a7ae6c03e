import BioAuthProtocol
import Foundation
import SQLKit

/// The `sessions` table: every statement that reads or writes it, inside the caller's
/// transaction or connection. Only the SHA-256 of a token is stored; a session is found by the id
/// its token carries (``SessionToken``).
enum SessionTable {
    /// Inserts a new session (signed in at its creation, with its one factor, stepped up then or
    /// not at all) whose token hashes to `tokenDigest`.
    static func insert(_ db: any StatementDatabase, _ session: Session, tokenDigest: Data) async throws {
        let authentication = session.authentication
        let bound: [String: SQLValue] = [
            "session_id": .text(session.id), "user_id": .text(session.userID), "token_digest": .bytes(tokenDigest),
            "factor": .text(authentication.method.rawValue),
            "credential_kind": .text(authentication.registrationID != nil ? "device_key" : authentication.passkeyID != nil ? "passkey" : "none"),
            "credential_id": .text(authentication.registrationID ?? authentication.passkeyID ?? ""), "now": .time(session.createdAt),
            "expires_at": .time(session.expiresAt), "restricted_expires_at": .time(session.expiresAt),
            "password_change_required": .integer(session.passwordChangeRequired ? 1 : 0), "steps_up": .integer(session.stepUpAt == nil ? 0 : 1),
        ]
        _ = try await db.rows(insert, bound)
    }

    /// Inserts session `:session_id` of the user `userID` (an SQL expression) whose token hashes to
    /// `:token_digest`, signed in at `:now` with `:factor` (the credential `:credential_id`, of kind
    /// `device_key`, `passkey` or neither in `:credential_kind`), stepped up then when `:steps_up` is
    /// 1, living until `:expires_at`, or until `:restricted_expires_at` if sooner when
    /// `passwordChangeRequired` (an SQL expression) is not 0; one for each row of `source` (a `FROM`
    /// clause, or nothing) when `gate` holds, returning ``returnedColumns``. The sign-in's
    /// completion runs it on both databases.
    static func inserting(userID: String, passwordChangeRequired: String, from source: String = "", when gate: String) -> String {
        """
        INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at,
                              password_change_required, factors, step_up_at)
        SELECT :session_id, \(userID), :token_digest, :factor, CASE WHEN :credential_kind = 'device_key' THEN :credential_id END,
               CASE WHEN :credential_kind = 'passkey' THEN :credential_id END, :now,
               CASE WHEN \(passwordChangeRequired) <> 0 AND :restricted_expires_at < :expires_at THEN :restricted_expires_at ELSE :expires_at END,
               :now, \(passwordChangeRequired), :factor, CASE WHEN :steps_up = 1 THEN :now END \(source)
        WHERE \(gate)
        RETURNING \(returnedColumns)
        """
    }

    static let insert = NamedSQL(inserting(userID: ":user_id", passwordChangeRequired: ":password_change_required", when: "true"))

    /// The columns of a session that ``inserting(userID:passwordChangeRequired:from:when:)`` and
    /// ``renewing(when:)`` return, as ``session(_:at:userID:)`` reads them.
    static let returnedColumns =
        "id, created_at, expires_at, method, registration_id, passkey_id, authenticated_at, factors, step_up_at, password_change_required"

    /// The session of user `userID` in ``returnedColumns``, from column `first` of `row` on.
    static func session(_ row: StatementRow, at first: Int, userID: String) throws -> Session {
        Session(
            id: try row.text(first),
            userID: userID,
            createdAt: try row.date(first + 1),
            expiresAt: try row.date(first + 2),
            authentication: .init(
                method: try row.enumeration(first + 3, as: AuthenticationMethod.self),
                registrationID: try row.optionalText(first + 4),
                passkeyID: try row.optionalText(first + 5)
            ),
            authenticatedAt: try row.date(first + 6),
            factors: try factors(try row.text(first + 7)),
            stepUpAt: try row.optionalDate(first + 8),
            passwordChangeRequired: try row.integer(first + 9) != 0
        )
    }

    /// The factors a `factors` column lists.
    static func factors(_ stored: String) throws -> [AuthenticationMethod] {
        try stored.split(separator: ",").map { name in
            guard let factor = AuthenticationMethod(known: String(name)) else { throw CorruptRowError(column: "factors") }
            return factor
        }
    }

    /// A session's factors with the factor `factor` names added (once), as an SQL expression both
    /// databases evaluate (``renewing(when:)``): `factors` is the comma-separated list.
    static func addingFactor(_ factor: String) -> String {
        "CASE WHEN ',' || factors || ',' LIKE '%,' || \(factor) || ',%' THEN factors ELSE factors || ',' || \(factor) END"
    }

    /// The caller a live session's token names, if any; with an idle timeout, only a session used
    /// after `idleSince`.
    static func caller(_ db: any StatementDatabase, _ lookup: SessionToken.Lookup, now: Date, idleSince: Date?) async throws -> Caller? {
        let idle = SQLValue.integer(idleSince?.millisecondsSince1970 ?? Int64.min)
        guard let row = try await db.first(CallerByToken.self, .text(lookup.id), .bytes(lookup.digest), .time(now), idle) else { return nil }
        return Caller(
            sessionID: try row.text(0),
            userID: try row.text(1),
            stepUpAt: try row.optionalDate(2),
            passwordChangeRequired: try row.integer(3) != 0,
            lastSeenAt: try row.date(4),
            facts: SessionFacts(
                factors: try factors(try row.text(5)),
                authenticatedAt: try row.date(6),
                stepUpAt: try row.optionalDate(2),
                passkeyBackupEligible: row.values[7] == .null ? nil : try row.integer(7) != 0
            )
        )
    }

    /// What ``caller(_:_:now:idleSince:)`` reads of a session: the caller, then its
    /// ``SessionFacts`` (with the passkey that signed it in).
    private static let callerColumns = """
        id, user_id, step_up_at, password_change_required, COALESCE(last_seen_at, created_at), factors, authenticated_at,
        (SELECT backup_eligible FROM passkeys WHERE passkeys.id = sessions.passkey_id)
        """

    /// ``caller(_:_:now:idleSince:)``'s query, run for every authenticated request: the session by
    /// its primary key, if the token's digest is the stored one, it is live and was used after the
    /// idle cutoff.
    enum CallerByToken: PreparedStatementText {
        static let name = "bioauth_session_caller_by_token"
        static let sql = """
            SELECT \(callerColumns) FROM sessions
            WHERE id = $1 AND token_hash = $2 AND revoked_at IS NULL AND expires_at > $3 AND COALESCE(last_seen_at, created_at) > $4
            """
        static let parameters: [SQLType] = [.text, .bytes, .integer, .integer]
    }

    /// Records that a live session was used now (for the idle timeout).
    static func touch(_ db: any StatementDatabase, id: String, now: Date) async throws {
        try await db.run("UPDATE sessions SET last_seen_at = $1 WHERE id = $2", .time(now), .text(id))
    }

    /// Renews the authentication of the user's live session `id` with `factor` (its step-up time
    /// too when the factor `stepsUp`); the session as it now is, or `nil` when it has ended.
    static func renew(
        _ db: any StatementDatabase,
        id: String,
        userID: String,
        factor: AuthenticationMethod,
        stepsUp: Bool,
        now: Date
    ) async throws -> Session? {
        let bound: [String: SQLValue] = [
            "session_id": .text(id), "user_id": .text(userID), "factor": .text(factor.rawValue), "steps_up": .integer(stepsUp ? 1 : 0),
            "now": .time(now),
        ]
        return try await db.rows(renew, bound).first.map { try session($0, at: 0, userID: userID) }
    }

    /// Renews `:user_id`'s live session `:session_id` at `:now` with `:factor` (its step-up time too
    /// when `:steps_up` is 1) when `gate` holds, returning ``returnedColumns``. The sign-in's
    /// completion runs it on both databases.
    static func renewing(when gate: String) -> String {
        """
        UPDATE sessions
        SET authenticated_at = :now, step_up_at = CASE WHEN :steps_up = 1 THEN :now ELSE step_up_at END, factors = \(addingFactor(":factor"))
        WHERE id = :session_id AND user_id = :user_id AND revoked_at IS NULL AND expires_at > :now AND \(gate)
        RETURNING \(returnedColumns)
        """
    }

    private static let renew = NamedSQL(renewing(when: "true"))

    /// A user's live sessions (or the one with `id`), newest first.
    static func live(_ db: any StatementDatabase, userID: String, id: String? = nil, now: Date) async throws -> [Session] {
        var query = SQLQueryString(
            """
            SELECT id, user_id, method, registration_id, passkey_id, created_at, expires_at, authenticated_at, password_change_required,
                   factors, step_up_at FROM sessions
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
            """
        )
        if let id {
            query.appendInterpolation(unsafeRaw: " AND id = ")
            query.appendInterpolation(bind: id)
        }
        query.appendInterpolation(unsafeRaw: " ORDER BY created_at DESC, id")
        return try await db.raw(query).all().map { row in
            let method = try row.decodeEnum(column: "method", as: AuthenticationMethod.self)
            return Session(
                id: try row.decode(column: "id", as: String.self),
                userID: try row.decode(column: "user_id", as: String.self),
                createdAt: try row.decodeDate(column: "created_at"),
                expiresAt: try row.decodeDate(column: "expires_at"),
                authentication: .init(
                    method: method,
                    registrationID: try row.decode(column: "registration_id", as: String?.self),
                    passkeyID: try row.decode(column: "passkey_id", as: String?.self)
                ),
                authenticatedAt: try row.decodeDate(column: "authenticated_at"),
                factors: try factors(try row.decode(column: "factors", as: String.self)),
                stepUpAt: try row.decodeOptionalDate(column: "step_up_at"),
                passwordChangeRequired: try row.decode(column: "password_change_required", as: Int.self) != 0
            )
        }
    }

    /// How many sessions are live now.
    static func liveCount(_ db: any StatementDatabase, now: Date) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS live FROM sessions WHERE revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)")
            .first()?.decode(column: "live", as: Int.self) ?? 0
    }

    /// Ends one live session of the user's; whether there was one.
    static func revoke(_ db: any StatementDatabase, id: String, userID: String, now: Date) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: id) AND user_id = \(bind: userID)
              AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
            RETURNING id
            """
        ).all().isEmpty
    }

    /// Ends every live session of a user but `sparing`; returns how many ended.
    static func revokeAll(_ db: any StatementDatabase, userID: String, sparing sessionID: String?, now: Date) async throws -> Int {
        try await db.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
              AND id <> \(bind: sessionID ?? "")
            RETURNING id
            """
        ).all().count
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
        let (column, credentials, id) =
            switch signer {
            case .registration(let id): ("registration_id", "registrations", id)
            case .passkey(let id): ("passkey_id", "passkeys", id)
            }
        try await db.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = (SELECT user_id FROM \(unsafeRaw: credentials) WHERE id = \(bind: id))
              AND expires_at > \(bind: now.millisecondsSince1970) AND \(unsafeRaw: column) = \(bind: id)
              AND revoked_at IS NULL AND id <> \(bind: sessionID ?? "")
            """
        ).run()
    }

    /// Lifts a one-time password's restriction from a session.
    static func clearPasswordChangeRequired(_ db: any StatementDatabase, id: String) async throws {
        try await db.raw("UPDATE sessions SET password_change_required = 0 WHERE id = \(bind: id)").run()
    }

    /// Deletes sessions that expired or were revoked at or before `cutoff`; returns how many.
    static func purge(_ db: any StatementDatabase, endedBy cutoff: Int64) async throws -> Int {
        try await db.raw(
            """
            DELETE FROM sessions
            WHERE expires_at <= \(bind: cutoff) OR (revoked_at IS NOT NULL AND revoked_at <= \(bind: cutoff))
            RETURNING id
            """
        ).all().count
    }
}
