import BioAuthProtocol
import Foundation

/// ``SignInCompletion`` on PostgreSQL: one prepared statement of data-modifying `WITH` steps, in
/// one round trip and one implicit transaction. Every data-modifying step runs once whether or not
/// the query reads it; each is gated on the rows its predecessors returned, so a challenge spent
/// before changes nothing, a proof that did not hold only spends it and counts the failure, and an
/// account whose state refuses the proof gets no session.
///
/// The steps are written once, here (``steps(factor:renews:)``); each factor and purpose gets a
/// text holding only the steps it takes (a biometric sign-in's has no lock, no passkey and no
/// one-time password), prepared under a name of its own: PostgreSQL opens the table and indexes of
/// every data-modifying step of a statement whether it runs or not, which cost a text for all
/// credentials about 0.2 ms a sign-in.
///
/// The account's row is read `FOR KEY SHARE`: a credential change (``AccountCore/change(_:apply:)``)
/// takes `FOR UPDATE` on it first (``UserTable/lock(_:id:)``), so a completion either finishes before the change begins, and
/// the change then ends the session it made, or waits for the change and sees its new epoch.
enum SignInCompletionStatement {
    /// Runs `completion` as the statement and reads its verdict.
    static func run(_ completion: SignInCompletion, on db: any StatementDatabase) async throws -> SignInCompletion.Verdict {
        guard let row = try await rows(completion, on: db).first else { throw CorruptRowError(column: "sign-in completion") }
        guard try row.integer(0) > 0 else { return .challengeSpent }
        guard completion.holds else { return .failed(locked: try row.integer(1) > 0) }
        if let verdict = SignInCompletion.verdict(onState: try row.optionalText(2)) { return verdict }
        guard try row.integer(3) > 0 else { return .credentialGone }
        guard let sessionID = try row.optionalText(6) else { return .sessionEnded }
        let user = User(id: completion.userID ?? "", username: try row.text(4), createdAt: try row.date(5))
        let session = Session(
            id: sessionID,
            userID: user.id,
            createdAt: try row.date(7),
            expiresAt: try row.date(8),
            authentication: .init(
                method: try row.enumeration(9, as: AuthenticationMethod.self),
                registrationID: try row.optionalText(10),
                passkeyID: try row.optionalText(11)
            ),
            authenticatedAt: try row.date(12),
            factors: try SessionTable.factors(try row.text(13)),
            stepUpAt: try row.optionalDate(14),
            passwordChangeRequired: try row.integer(15) != 0
        )
        return .completed(user, session)
    }

    /// The statement's rows for `completion`, run under its factor's and purpose's text.
    private static func rows(_ completion: SignInCompletion, on db: any StatementDatabase) async throws -> [StatementRow] {
        let values = bindings(completion)
        let renews = if case .renew = completion.success.purpose { true } else { false }
        return switch (completion.factor, renews) {
        case (.biometric, false): try await db.rows(Text<Biometric, SignIn>.self, values)
        case (.biometric, true): try await db.rows(Text<Biometric, Renewal>.self, values)
        case (.pin, false): try await db.rows(Text<PIN, SignIn>.self, values)
        case (.pin, true): try await db.rows(Text<PIN, Renewal>.self, values)
        case (.passkey, false): try await db.rows(Text<Passkey, SignIn>.self, values)
        case (.passkey, true): try await db.rows(Text<Passkey, Renewal>.self, values)
        case (.password, false): try await db.rows(Text<Password, SignIn>.self, values)
        case (.password, true): try await db.rows(Text<Password, Renewal>.self, values)
        default: throw CorruptRowError(column: "factor \(completion.factor)")  // the server proves only the factors it knows
        }
    }

    /// The text for a factor and a purpose, prepared once per connection under its own name.
    /// PostgresNIO reads the name and text on every execution: both come made from ``texts``.
    struct Text<Factor: FactorSteps, Purpose: PurposeSteps>: PreparedStatementText {
        private static var made: (name: String, sql: String) { texts[Variant(factor: Factor.factor, renews: Purpose.renews)]! }
        static var name: String { made.name }
        static var sql: String { made.sql }
        static var parameters: [SQLType] { SignInCompletionStatement.parameters }
    }

    /// A factor whose completion has a text of its own.
    protocol FactorSteps { static var factor: AuthenticationMethod { get } }
    enum Biometric: FactorSteps { static var factor: AuthenticationMethod { .biometric } }
    enum PIN: FactorSteps { static var factor: AuthenticationMethod { .pin } }
    enum Passkey: FactorSteps { static var factor: AuthenticationMethod { .passkey } }
    enum Password: FactorSteps { static var factor: AuthenticationMethod { .password } }

    /// A sign-in (a new session) or a renewal of the caller's session.
    protocol PurposeSteps { static var renews: Bool { get } }
    enum SignIn: PurposeSteps { static var renews: Bool { false } }
    enum Renewal: PurposeSteps { static var renews: Bool { true } }

    /// A factor and a purpose: which steps a text holds.
    struct Variant: Hashable {
        var factor: AuthenticationMethod
        var renews: Bool
    }

    /// Every text with its name, by factor and purpose, assembled once.
    static let texts: [Variant: (name: String, sql: String)] = Dictionary(
        uniqueKeysWithValues: AuthenticationMethod.allCases.flatMap { factor in
            [false, true].map { renews in
                (
                    Variant(factor: factor, renews: renews),
                    ("bioauth_completion_\(factor.rawValue)_\(renews ? "renewal" : "sign_in")", steps(factor: factor, renews: renews))
                )
            }
        }
    )

    private static func bindings(_ c: SignInCompletion) -> [SQLValue] {
        let at = c.now.millisecondsSince1970
        let (spendKind, spendID, ceremony): (String, String, Int64) =
            switch c.challenge {
            case nil: ("none", "", 0)
            case .authentication(let challenge): ("authentication", challenge.id, 0)
            case .webAuthn(let id, let ceremony): ("webauthn", id, Int64(ceremony.rawValue))
            }
        let (credentialKind, credentialID, pinHash, verifiedCount, count, backedUp): (String, String, String?, Int64, Int64, Int64) =
            switch c.credential {
            case .password: ("password", "", nil, 0, 0, 0)
            case .deviceKey(let id, let hash): ("device_key", id, hash, 0, 0, 0)
            case .passkey(let id, let verified, let signCount, let backedUp):
                ("passkey", id, nil, Int64(verified), Int64(signCount), backedUp ? 1 : 0)
            }
        let (sessionID, tokenDigest, expiresAt): (String, [UInt8], Int64) =
            switch c.success.purpose {
            case .newSession(let session, let digest): (session.id, Array(digest), session.expiresAt.millisecondsSince1970)
            case .renew(let id): (id, [], 0)
            }
        let (lockKey, lockFactor, lockouts, lockKind, lockMilliseconds): (String, String, Int64, Int64, Int64) =
            switch c.failure.lock {
            case nil: ("", "", -1, 0, 0)
            case (let attempt, .forMilliseconds(let milliseconds))?:
                (attempt.usernameKey, attempt.factor.rawValue, Int64(attempt.lockouts), 1, milliseconds)
            case (let attempt, .untilCleared)?: (attempt.usernameKey, attempt.factor.rawValue, Int64(attempt.lockouts), 2, 0)
            }
        return [
            .integer(at), .integer(c.holds ? 1 : 0), .text(spendKind), .text(spendID), .integer(ceremony), .text(c.userID ?? ""),
            .integer(c.epoch), .text(c.factor.rawValue), .text(credentialKind), .text(credentialID), .text(pinHash),
            .integer(verifiedCount), .integer(count), .integer(backedUp), .text(sessionID), .bytes(tokenDigest),
            .integer(expiresAt), .integer(c.restrictedExpiry.millisecondsSince1970), .integer(c.success.stepsUp ? 1 : 0),
            .text(SecureRandom.identifier(.event)), .text(c.success.event.rawValue),
            .integer(c.success.clears.contains(.password) ? 1 : 0), .integer(c.success.clears.contains(.pin) ? 1 : 0),
            .text(SecureRandom.identifier(.event)), .text(c.failure.subject?.key ?? ""), .text(c.failure.event.rawValue),
            .integer(at - at % AuditLog.tallyWindowMilliseconds),
            .text(lockKey), .text(lockFactor), .integer(lockouts), .integer(lockKind), .integer(lockMilliseconds),
            .integer(c.lockClock.usesDatabaseClock ? 1 : 0), .text(SecureRandom.identifier(.event)), .text(c.failure.recordedEvent?.rawValue),
        ]
    }

    /// The parameters of every text (each uses some), `$1` first.
    static let parameters: [SQLType] = [
        .integer, .integer, .text, .text, .integer, .text,  // $1-$6: now, holds, spend kind, spend id, ceremony, user
        .integer, .text, .text, .text, .text,  // $7-$11: epoch, factor, credential kind, credential id, new PIN hash
        .integer, .integer, .integer, .text, .bytes,  // $12-$16: counters, backed up, session id, token digest
        .integer, .integer, .integer, .text, .text,  // $17-$21: expiry, restricted expiry, steps up, event id, event kind
        .integer, .integer, .text, .text, .text, .integer,  // $22-$27: clears, tally id, subject, failure kind, window
        .text, .text, .integer, .integer, .integer, .integer, .text, .text,  // $28-$35: the lock, its clock, the recorded failure
    ]

    /// The statement for `factor`, making a session or (`renews`) renewing the caller's, from the
    /// one set of steps below.
    static func steps(factor: AuthenticationMethod, renews: Bool) -> String {
        // Steps whose gates no completion of `factor` opens are left out: only the policy's factors
        // lock and clear (LockoutPolicy), and only a passkey ceremony spends a WebAuthn challenge.
        let locks = LockoutPolicy.Factor(rawValue: factor.rawValue) != nil
        let clears = !LockoutPolicy.cleared(bySuccessOf: factor).isEmpty
        var steps: [String] = []
        switch factor {
        case .biometric:
            steps += [spentKey, "spent AS (SELECT 1 AS spent FROM spent_key)"]
        case .pin:
            // A PIN whose key's signature verified had its challenge spent by its reservation.
            steps += [spentKey, "spent AS (SELECT 1 AS spent FROM spent_key UNION ALL SELECT 1 WHERE $3 = 'none')"]
        case .passkey:
            steps += [spentCeremony, "spent AS (SELECT 1 AS spent FROM spent_ceremony WHERE expires_at > $1)"]
        case .password:
            steps += ["spent AS (SELECT 1 AS spent)"]
        default:
            preconditionFailure("\(factor) has no completion")  // texts are made for the known factors only
        }
        if locks { steps.append(locked) }
        steps += [tally, failureEvent]
        steps += [accountRow, account]
        switch factor {
        case .biometric, .pin: steps += [usedKey, "used AS (SELECT user_id FROM used_key)"]
        case .passkey: steps += [usedPasskey, "used AS (SELECT user_id FROM used_passkey)"]
        case .password:
            // A one-time password is current only if this completion spends it: of two racing
            // sign-ins with it, the second's UPDATE waits for the first's and then finds it spent.
            steps += [
                spentPassword,
                "used AS (SELECT id AS user_id FROM account WHERE password_change_required = 0 UNION ALL SELECT id FROM spent_password)",
            ]
        default:
            preconditionFailure("\(factor) has no completion")
        }
        if clears { steps.append(cleared) }
        steps += renews ? [renewed, "session AS (SELECT * FROM renewed)"] : [newSession, "session AS (SELECT * FROM new_session)"]
        steps.append(event)
        return "WITH " + steps.joined(separator: ",\n") + """

            SELECT (SELECT count(*) FROM spent), \(locks ? "(SELECT count(*) FROM locked)" : "0"), account_row.state,
                   (SELECT count(*) FROM used), account_row.username, account_row.created_at, session.id, session.created_at,
                   session.expires_at, session.method, session.registration_id, session.passkey_id, session.authenticated_at,
                   session.factors, session.step_up_at, session.password_change_required
            FROM (SELECT 1) AS one LEFT JOIN account_row ON true LEFT JOIN session ON true
            """
    }

    private static let spentKey = """
        spent_key AS (
            INSERT INTO spent_challenges (id) SELECT $4 WHERE $3 = 'authentication' ON CONFLICT (id) DO NOTHING RETURNING id)
        """
    private static let spentCeremony = """
        spent_ceremony AS (
            DELETE FROM webauthn_challenges WHERE id = $4 AND ceremony = $5 RETURNING expires_at)
        """
    private static let locked = """
        locked AS (
            UPDATE factor_failures
            SET lockouts = lockouts + 1,
                locked_until = CASE WHEN $31 = 2 THEN \(LockoutPolicy.untilCleared)
                                    ELSE (CASE WHEN $33 = 1 THEN \(DatabaseClock.postgresNow) ELSE $1 END) + $32 END
            WHERE $2 = 0 AND $31 <> 0 AND username_key = $28 AND factor = $29 AND lockouts = $30 AND EXISTS (SELECT 1 FROM spent)
            RETURNING 1 AS locked)
        """
    private static let tally = """
        tally AS (
            INSERT INTO audit_tallies (id, subject, type, outcome, registration_id, window_start, count, last_at)
            SELECT $24, $25, $26, 'failure', $10, $27, 1, $1 WHERE $2 = 0 AND $25 <> '' AND EXISTS (SELECT 1 FROM spent)
            ON CONFLICT (subject, type, outcome, registration_id, window_start)
            DO UPDATE SET count = audit_tallies.count + 1, last_at = excluded.last_at)
        """
    private static let failureEvent = """
        failure_event AS (
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
            SELECT $34, $6, $35, 'failure', $1, NULLIF($10, ''), NULL WHERE $2 = 0 AND $35 IS NOT NULL AND EXISTS (SELECT 1 FROM spent))
        """
    private static let accountRow = """
        account_row AS (
            SELECT id, username, username_key, created_at, password_change_required,
                   \(AccountStateSQL.state(epoch: "$7", factor: "$8", now: "$1")) AS state
            FROM users WHERE $2 = 1 AND id = $6 AND EXISTS (SELECT 1 FROM spent)
            FOR KEY SHARE)
        """
    private static let account = "account AS (SELECT * FROM account_row WHERE state = '\(SignInCompletion.currentState)')"
    private static let usedKey = """
        used_key AS (
            UPDATE registrations SET last_used_at = $1, pin_hash = COALESCE($11, pin_hash)
            WHERE id = $10 AND user_id = $6 AND status = 'active' AND EXISTS (SELECT 1 FROM account)
            RETURNING user_id)
        """
    private static let usedPasskey = """
        used_passkey AS (
            UPDATE passkeys SET sign_count = $13, backed_up = $14, last_used_at = $1
            WHERE id = $10 AND user_id = $6 AND status = 'active' AND sign_count = $12 AND EXISTS (SELECT 1 FROM account)
            RETURNING user_id)
        """
    private static let cleared = """
        cleared AS (
            DELETE FROM factor_failures
            WHERE EXISTS (SELECT 1 FROM used) AND username_key = (SELECT username_key FROM account)
              AND ((factor = 'password' AND $22 = 1) OR (factor = 'pin' AND $23 = 1)))
        """
    private static let spentPassword = """
        spent_password AS (
            UPDATE users SET password_expires_at = $1
            WHERE id = $6 AND \(UserTable.unspentOneTimePassword(now: "$1")) AND EXISTS (SELECT 1 FROM account)
            RETURNING id)
        """
    private static let newSession = """
        new_session AS (
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at,
                                  password_change_required, factors, step_up_at)
            SELECT $15, account.id, $16, $8, CASE WHEN $9 = 'device_key' THEN $10 END, CASE WHEN $9 = 'passkey' THEN $10 END, $1,
                   CASE WHEN account.password_change_required <> 0 THEN LEAST($17, $18) ELSE $17 END, $1,
                   account.password_change_required, $8, CASE WHEN $19 = 1 THEN $1 END
            FROM account WHERE EXISTS (SELECT 1 FROM used)
            RETURNING id, created_at, expires_at, method, registration_id, passkey_id, authenticated_at, factors, step_up_at,
                      password_change_required)
        """
    private static let renewed = """
        renewed AS (
            UPDATE sessions
            SET authenticated_at = $1, step_up_at = CASE WHEN $19 = 1 THEN $1 ELSE step_up_at END,
                factors = \(SessionTable.addingFactor("$8"))
            WHERE id = $15 AND user_id = $6 AND revoked_at IS NULL AND expires_at > $1 AND EXISTS (SELECT 1 FROM used)
            RETURNING id, created_at, expires_at, method, registration_id, passkey_id, authenticated_at, factors, step_up_at,
                      password_change_required)
        """
    private static let event = """
        event AS (
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
            SELECT $20, $6, $21, 'success', $1, NULLIF($10, ''), session.id FROM session)
        """
}
