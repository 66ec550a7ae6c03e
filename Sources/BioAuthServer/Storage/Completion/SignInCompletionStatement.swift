import BioAuthProtocol
import Foundation

/// ``SignInCompletion`` on PostgreSQL: one prepared statement of data-modifying `WITH` steps, the
/// same for every credential, in one round trip and one implicit transaction. Every
/// data-modifying step runs once whether or not the query reads it; each is gated on the rows its
/// predecessors returned (and on the parameters that say which credential it is), so a challenge
/// spent before changes nothing, a proof that did not hold only spends it and counts the failure,
/// and an account whose state refuses the proof gets no session.
///
/// The account's row is read `FOR KEY SHARE`: a credential change (``UserTable/advanceEpoch(_:id:)``)
/// takes `FOR UPDATE` on it first, so a completion either finishes before the change begins, and
/// the change then ends the session it made, or waits for the change and sees its new epoch.
enum SignInCompletionStatement: PreparedStatementText {
    static let name = "bioauth_sign_in_completion"

    /// Runs `completion` as the statement and reads its verdict.
    static func run(_ completion: SignInCompletion, on db: any StatementDatabase) async throws -> SignInCompletion.Verdict {
        guard let row = try await db.rows(Self.self, bindings(completion)).first else { throw CorruptRowError(column: "sign-in completion") }
        guard try row.integer(0) > 0 else { return .challengeSpent }
        guard completion.holds else { return .failed(locked: try row.integer(1) > 0) }
        if let verdict = SignInCompletion.verdict(onState: try row.optionalText(2)) { return verdict }
        guard try row.integer(3) > 0 else { return .credentialGone }
        guard let sessionID = try row.optionalText(6) else { return .sessionEnded }
        let user = User(id: completion.userID ?? "", username: try row.text(4), createdAt: try row.date(5))
        let session = Session(
            id: sessionID, userID: user.id, createdAt: try row.date(7), expiresAt: try row.date(8),
            authentication: .init(method: try row.enumeration(9, as: AuthenticationMethod.self), registrationID: try row.optionalText(10),
                                  passkeyID: try row.optionalText(11)),
            authenticatedAt: try row.date(12), factors: try SessionTable.factors(try row.text(13), method: try row.enumeration(9, as: AuthenticationMethod.self)),
            stepUpAt: try row.optionalDate(14),
            passwordChangeRequired: try row.integer(15) != 0)
        return .completed(user, session)
    }

    private static func bindings(_ c: SignInCompletion) -> [SQLValue] {
        let at = c.now.millisecondsSince1970
        let (spendKind, spendID, ceremony): (String, String, Int64) = switch c.challenge {
        case nil: ("none", "", 0)
        case .authentication(let challenge): ("authentication", challenge.id, 0)
        case .webAuthn(let id, let ceremony): ("webauthn", id, Int64(ceremony.rawValue))
        }
        let (credentialKind, credentialID, pinHash, verifiedCount, count, backedUp): (String, String, String?, Int64, Int64, Int64) = switch c.credential {
        case .password: ("password", "", nil, 0, 0, 0)
        case .deviceKey(let id, let hash): ("device_key", id, hash, 0, 0, 0)
        case .passkey(let id, let verified, let signCount, let backedUp): ("passkey", id, nil, Int64(verified), Int64(signCount), backedUp ? 1 : 0)
        }
        let (purpose, sessionID, tokenDigest, expiresAt): (String, String, [UInt8], Int64) = switch c.success.purpose {
        case .newSession(let session, let digest): ("sign_in", session.id, Array(digest), session.expiresAt.millisecondsSince1970)
        case .renew(let id): ("renew", id, [], 0)
        }
        let (lockKey, lockFactor, lockouts, lockKind, lockMilliseconds): (String, String, Int64, Int64, Int64) = switch c.failure.lock {
        case nil: ("", "", -1, 0, 0)
        case (let attempt, .forMilliseconds(let milliseconds))?: (attempt.usernameKey, attempt.factor.rawValue, Int64(attempt.lockouts), 1, milliseconds)
        case (let attempt, .untilCleared)?: (attempt.usernameKey, attempt.factor.rawValue, Int64(attempt.lockouts), 2, 0)
        }
        return [
            .integer(at), .integer(c.holds ? 1 : 0), .text(spendKind), .text(spendID), .integer(ceremony), .text(c.userID ?? ""),
            .integer(c.epoch), .text(c.factor.rawValue), .text(credentialKind), .text(credentialID), .text(pinHash),
            .integer(verifiedCount), .integer(count), .integer(backedUp), .text(purpose), .text(sessionID), .bytes(tokenDigest),
            .integer(expiresAt), .integer(c.restrictedExpiry.millisecondsSince1970), .integer(c.success.stepsUp ? 1 : 0),
            .text(SecureRandom.identifier(.event)), .text(c.success.event.rawValue),
            .integer(c.success.clears.contains(.password) ? 1 : 0), .integer(c.success.clears.contains(.pin) ? 1 : 0),
            .text(SecureRandom.identifier(.event)), .text(c.failure.subject?.key ?? ""), .text(c.failure.event.rawValue),
            .integer(at - at % AuditLog.tallyWindowMilliseconds),
            .text(lockKey), .text(lockFactor), .integer(lockouts), .integer(lockKind), .integer(lockMilliseconds),
            .integer(c.lockClock.usesDatabaseClock ? 1 : 0), .text(SecureRandom.identifier(.event)), .text(c.failure.recordedEvent?.rawValue),
        ]
    }

    static let parameters: [SQLType] = [
        .integer, .integer, .text, .text, .integer, .text,  // $1-$6: now, holds, spend kind, spend id, ceremony, user
        .integer, .text, .text, .text, .text,  // $7-$11: epoch, factor, credential kind, credential id, new PIN hash
        .integer, .integer, .integer, .text, .text, .bytes,  // $12-$17: counters, backed up, purpose, session id, token digest
        .integer, .integer, .integer, .text, .text,  // $18-$22: expiry, restricted expiry, steps up, event id, event kind
        .integer, .integer, .text, .text, .text, .integer,  // $23-$28: clears, tally id, subject, failure kind, window
        .text, .text, .integer, .integer, .integer, .integer, .text, .text,  // $29-$36: the lock, its clock, the recorded failure
    ]

    static let sql = """
        WITH spent_key AS (
            INSERT INTO spent_challenges (id) SELECT $4 WHERE $3 = 'authentication' ON CONFLICT (id) DO NOTHING RETURNING id
        ), spent_ceremony AS (
            DELETE FROM webauthn_challenges WHERE $3 = 'webauthn' AND id = $4 AND ceremony = $5 RETURNING expires_at
        ), spent AS (
            SELECT 1 AS spent FROM spent_key
            UNION ALL SELECT 1 FROM spent_ceremony WHERE expires_at > $1
            UNION ALL SELECT 1 WHERE $3 = 'none'
        ), locked AS (
            UPDATE factor_failures
            SET lockouts = lockouts + 1,
                locked_until = CASE WHEN $32 = 2 THEN \(LockoutPolicy.untilCleared)
                                    ELSE (CASE WHEN $34 = 1 THEN \(DatabaseClock.postgresNow) ELSE $1 END) + $33 END
            WHERE $2 = 0 AND $32 <> 0 AND username_key = $29 AND factor = $30 AND lockouts = $31 AND EXISTS (SELECT 1 FROM spent)
            RETURNING 1 AS locked
        ), tally AS (
            INSERT INTO audit_tallies (id, subject, type, outcome, registration_id, window_start, count, last_at)
            SELECT $25, $26, $27, 'failure', $10, $28, 1, $1 WHERE $2 = 0 AND $26 <> '' AND EXISTS (SELECT 1 FROM spent)
            ON CONFLICT (subject, type, outcome, registration_id, window_start)
            DO UPDATE SET count = audit_tallies.count + 1, last_at = excluded.last_at
        ), failure_event AS (
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
            SELECT $35, $6, $36, 'failure', $1, NULLIF($10, ''), NULL WHERE $2 = 0 AND $36 IS NOT NULL AND EXISTS (SELECT 1 FROM spent)
        ), account_row AS (
            SELECT id, username, username_key, created_at, password_change_required,
                   \(AccountStateSQL.state(epoch: "$7", factor: "$8", now: "$1")) AS state
            FROM users WHERE $2 = 1 AND id = $6 AND EXISTS (SELECT 1 FROM spent)
            FOR KEY SHARE
        ), account AS (
            SELECT * FROM account_row WHERE state = '\(SignInCompletion.currentState)'
        ), used_key AS (
            UPDATE registrations SET last_used_at = $1, pin_hash = COALESCE($11, pin_hash)
            WHERE $9 = 'device_key' AND id = $10 AND user_id = $6 AND status = 'active' AND EXISTS (SELECT 1 FROM account)
            RETURNING user_id
        ), used_passkey AS (
            UPDATE passkeys SET sign_count = $13, backed_up = $14, last_used_at = $1
            WHERE $9 = 'passkey' AND id = $10 AND user_id = $6 AND status = 'active' AND sign_count = $12 AND EXISTS (SELECT 1 FROM account)
            RETURNING user_id
        ), used AS (
            SELECT user_id FROM used_key
            UNION ALL SELECT user_id FROM used_passkey
            UNION ALL SELECT id FROM account WHERE $9 = 'password'
        ), cleared AS (
            DELETE FROM factor_failures
            WHERE EXISTS (SELECT 1 FROM used) AND username_key = (SELECT username_key FROM account)
              AND ((factor = 'password' AND $23 = 1) OR (factor = 'pin' AND $24 = 1))
        ), spent_password AS (
            UPDATE users SET password_expires_at = $1
            WHERE id = $6 AND $8 = 'password' AND password_change_required <> 0 AND EXISTS (SELECT 1 FROM used)
        ), new_session AS (
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at,
                                  password_change_required, legacy_token, factors, step_up_at)
            SELECT $16, account.id, $17, $8, CASE WHEN $9 = 'device_key' THEN $10 END, CASE WHEN $9 = 'passkey' THEN $10 END, $1,
                   CASE WHEN account.password_change_required <> 0 THEN LEAST($18, $19) ELSE $18 END, $1,
                   account.password_change_required, 0, $8, CASE WHEN $20 = 1 THEN $1 END
            FROM account WHERE $15 = 'sign_in' AND EXISTS (SELECT 1 FROM used)
            RETURNING id, created_at, expires_at, method, registration_id, passkey_id, authenticated_at, factors, step_up_at,
                      password_change_required
        ), renewed AS (
            UPDATE sessions
            SET authenticated_at = $1, step_up_at = CASE WHEN $20 = 1 THEN $1 ELSE step_up_at END,
                factors = \(SessionTable.addingFactor("$8"))
            WHERE $15 = 'renew' AND id = $16 AND user_id = $6 AND revoked_at IS NULL AND expires_at > $1 AND EXISTS (SELECT 1 FROM used)
            RETURNING id, created_at, expires_at, method, registration_id, passkey_id, authenticated_at, factors, step_up_at,
                      password_change_required
        ), session AS (
            SELECT * FROM new_session UNION ALL SELECT * FROM renewed
        ), event AS (
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
            SELECT $21, $6, $22, 'success', $1, NULLIF($10, ''), session.id FROM session
        )
        SELECT (SELECT count(*) FROM spent), (SELECT count(*) FROM locked), account_row.state, (SELECT count(*) FROM used),
               account_row.username, account_row.created_at, session.id, session.created_at, session.expires_at, session.method,
               session.registration_id, session.passkey_id, session.authenticated_at, session.factors, session.step_up_at,
               session.password_change_required
        FROM (SELECT 1) AS one LEFT JOIN account_row ON true LEFT JOIN session ON true
        """
}
