import BioAuthProtocol
import Foundation

/// The one transaction that ends a biometric sign-in, as a single step of the storage layer so
/// that each database can run it in its cheapest form.
///
/// It spends the challenge whatever the outcome. If the challenge was not spent before and the
/// signature held, it marks the registration used (which must still be active), creates the
/// session and records the event; if the signature failed, it counts the failure in the owner's
/// audit trail (whoever sent it has not shown they own the account, so it is not one row each).
/// Of concurrent attempts with one challenge, only the one whose spending lands goes on.
///
/// On SQLite it is the statements one after another in one transaction (a statement costs no
/// round trip there, and the transaction joins a group commit). On PostgreSQL it is one statement
/// of data-modifying `WITH` steps, each gated on the ones before, in one round trip and one
/// implicit transaction, instead of seven round trips from `BEGIN` to `COMMIT`.
enum BiometricSignInWrites {
    /// What the transaction decided.
    enum Outcome: Sendable, Equatable {
        /// The session was created; the user it belongs to.
        case signedIn(User)
        /// The challenge was spent before, has expired, or its registration is no longer active.
        case challengeInvalid
        /// The challenge is now spent and the failure counted.
        case signatureInvalid
    }

    /// One completion attempt: a verified-or-not answer and the session it would create.
    struct Attempt: Sendable {
        var challenge: AuthenticationChallenge
        var registrationID: String
        var userID: String
        var signatureIsValid: Bool
        /// The session to create if the attempt succeeds (its id, times and authentication).
        var session: Session
        var tokenDigest: Data
    }

    /// Runs the transaction for `attempt` at `now`; the commit is durable before it returns.
    static func commit(_ attempt: Attempt, on database: any DatabaseProvider, now: Date) async throws -> Outcome {
        guard attempt.challenge.expiresAt > now.millisecondsSince1970 else { return .challengeInvalid }
        switch database.flavor {
        case .sqlite:
            return try await database.transaction { db in try await statements(attempt, db, now: now) }
        case .postgres:
            return try await database.withDatabase { db in try await oneStatement(attempt, db, now: now) }
        }
    }

    /// The steps as separate statements inside the caller's transaction.
    private static func statements(_ attempt: Attempt, _ db: any StatementDatabase, now: Date) async throws -> Outcome {
        guard try await SpentChallengeTable.spend(db, attempt.challenge, now: now.millisecondsSince1970) else { return .challengeInvalid }
        guard attempt.signatureIsValid else {
            try await AuditLog.count(db, .user(attempt.userID), type: .biometricSignIn, outcome: .failure, at: now,
                                     registrationID: attempt.registrationID)
            return .signatureInvalid
        }
        // The registration may have been revoked or deleted since the challenge was issued.
        guard try await RegistrationTable.markUsed(db, id: attempt.registrationID, now: now),
              let user = try await UserTable.user(db, id: attempt.userID)
        else { return .challengeInvalid }
        try await SessionTable.insert(db, attempt.session, tokenDigest: attempt.tokenDigest)
        try await AuditLog.record(db, userID: attempt.userID, type: .biometricSignIn, outcome: .success, at: now,
                                  registrationID: attempt.registrationID, sessionID: attempt.session.id)
        return .signedIn(user)
    }

    /// The same steps as one PostgreSQL statement. Every data-modifying step runs once whether or
    /// not the query reads it; each is gated on the rows its predecessors returned, so a challenge
    /// spent before changes nothing, and a bad signature only spends it and counts the failure.
    private static func oneStatement(_ attempt: Attempt, _ db: any StatementDatabase, now: Date) async throws -> Outcome {
        let at = now.millisecondsSince1970
        let session = attempt.session
        guard let row = try await db.first(
            Completion.self,
            .text(attempt.challenge.id), .integer(at), .text(attempt.registrationID), .integer(attempt.signatureIsValid ? 1 : 0),
            .text(session.id), .bytes(attempt.tokenDigest), .text(session.authentication.method.rawValue), .time(session.createdAt),
            .time(session.expiresAt), .time(session.authenticatedAt), .text(SecureRandom.identifier(.event)),
            .text(AuditEvent.Kind.biometricSignIn.rawValue), .text(AuditEvent.Outcome.success.rawValue),
            .text(SecureRandom.identifier(.event)), .text(AuditLog.Subject.user(attempt.userID).key), .text(AuditEvent.Outcome.failure.rawValue),
            .integer(at - at % AuditLog.tallyWindowMilliseconds))
        else { return .challengeInvalid }
        guard try row.integer(0) == 1 else { return .challengeInvalid }
        guard attempt.signatureIsValid else { return .signatureInvalid }
        guard let username = try row.optionalText(1) else { return .challengeInvalid }
        return .signedIn(User(id: attempt.userID, username: username, createdAt: try row.date(2)))
    }

    /// ``oneStatement(_:_:now:)``'s text, prepared once per PostgreSQL connection: parsing and
    /// planning it costs PostgreSQL more than running it.
    enum Completion: PreparedStatementText {
        static let name = "bioauth_biometric_sign_in_completion"
        static let sql = """
            WITH spent AS (
                INSERT INTO spent_challenges (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id
            ), used AS (
                UPDATE registrations SET last_used_at = $2
                WHERE id = $3 AND status = 'active' AND $4 = 1 AND EXISTS (SELECT 1 FROM spent)
                RETURNING user_id
            ), owner AS (
                SELECT users.id, users.username, users.created_at FROM users JOIN used ON users.id = used.user_id
            ), session AS (
                INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at,
                                      authenticated_at, password_change_required, legacy_token)
                SELECT $5, owner.id, $6, $7, $3, NULL, $8, $9, $10, 0, 0 FROM owner
                RETURNING id, user_id
            ), event AS (
                INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
                SELECT $11, session.user_id, $12, $13, $2, $3, session.id FROM session
            ), tally AS (
                INSERT INTO audit_tallies (id, subject, type, outcome, registration_id, window_start, count, last_at)
                SELECT $14, $15, $12, $16, $3, $17, 1, $2 WHERE $4 = 0 AND EXISTS (SELECT 1 FROM spent)
                ON CONFLICT (subject, type, outcome, registration_id, window_start)
                DO UPDATE SET count = audit_tallies.count + 1, last_at = excluded.last_at
            )
            SELECT (SELECT count(*) FROM spent), owner.username, owner.created_at FROM (SELECT 1) AS one LEFT JOIN owner ON true
            """
        static let parameters: [SQLType] = [
            .text, .integer, .text, .integer, .text, .bytes, .text, .integer, .integer, .integer, .text, .text, .text, .text, .text, .text, .integer,
        ]
    }
}
