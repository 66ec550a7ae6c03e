import BioAuthProtocol
import Foundation
import SQLKit

/// Sessions: issuing tokens, recognising them, listing and ending sessions.
struct SessionService: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource
    let defaultMinutes: Int

    /// Checks a requested duration against the contract (5…43200 minutes).
    func duration(requested minutes: Int?) throws -> Int {
        let minutes = minutes ?? defaultMinutes
        guard ProtocolLimits.sessionDurationMinutes.contains(minutes) else {
            throw APIError(.invalidSessionDuration, "session_duration_minutes must be between \(ProtocolLimits.sessionDurationMinutes.lowerBound) and \(ProtocolLimits.sessionDurationMinutes.upperBound).")
        }
        return minutes
    }

    /// Creates a session inside the caller's transaction. The token is returned once and only its
    /// SHA-256 is stored.
    ///
    /// The sign-in is the session's first primary authentication (``Session/authenticatedAt``).
    static func insert(
        _ db: any SQLDatabase, userID: String, authentication: Session.Authentication, minutes: Int, now: Date,
        passwordChangeRequired: Bool = false
    ) async throws -> (token: SessionToken, session: Session) {
        let token = SessionToken.generate()
        let session = Session(
            id: SecureRandom.identifier(.session), userID: userID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(minutes * 60)), authentication: authentication,
            passwordChangeRequired: passwordChangeRequired)
        try await db.raw("""
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, created_at, expires_at, authenticated_at,
                                  password_change_required)
            VALUES (\(bind: session.id), \(bind: userID), \(bind: token.digest), \(bind: authentication.method.rawValue),
                    \(bind: authentication.registrationID), \(bind: session.createdAt.millisecondsSince1970),
                    \(bind: session.expiresAt.millisecondsSince1970), \(bind: session.authenticatedAt.millisecondsSince1970),
                    \(bind: passwordChangeRequired ? 1 : 0))
            """).run()
        return (token, session)
    }

    /// The caller a bearer token names, if the session is live.
    func authenticate(token: String) async throws -> Caller {
        let digest = SessionToken.digest(of: token)
        let now = time.now().millisecondsSince1970
        let row = try await database.withDatabase { db in
            try await db.raw("""
                SELECT id, user_id, authenticated_at, password_change_required FROM sessions
                WHERE token_hash = \(bind: digest) AND revoked_at IS NULL AND expires_at > \(bind: now)
                """).first()
        }
        guard let row else { throw APIError(.invalidSession, "The session token is unknown, expired or revoked.") }
        return Caller(sessionID: try row.decode(column: "id", as: String.self), userID: try row.decode(column: "user_id", as: String.self),
                      authenticatedAt: try row.decodeDate(column: "authenticated_at"),
                      passwordChangeRequired: try row.decode(column: "password_change_required", as: Int.self) != 0)
    }

    /// A live session of the caller's, with its user.
    func current(_ caller: Caller) async throws -> CurrentSessionResponse {
        let now = time.now()
        return try await database.withDatabase { db in try await Self.current(db, caller, now: now) }
    }

    /// The caller's live sessions, newest first.
    func list(_ caller: Caller) async throws -> [Session] {
        try await database.withDatabase { db in
            try await Self.sessions(db, userID: caller.userID, id: nil, now: time.now())
        }
    }

    /// Ends one of the caller's live sessions (the current one or another).
    func revoke(_ sessionID: String, of caller: Caller) async throws {
        let now = time.now()
        let isCurrent = sessionID == caller.sessionID
        let ended = try await database.transaction { db in
            let rows = try await db.raw("""
                UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
                WHERE id = \(bind: sessionID) AND user_id = \(bind: caller.userID)
                  AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
                RETURNING id
                """).all()
            guard !rows.isEmpty else { return false }
            try await AuditLog.record(db, userID: caller.userID, type: isCurrent ? .sessionSignedOut : .sessionRevoked,
                                      outcome: .success, at: now, sessionID: sessionID)
            return true
        }
        guard ended else {
            throw isCurrent
                ? APIError(.invalidSession, "The session has ended.")
                : APIError(.notFound, "No such session.")
        }
    }

    /// Ends every live session of the caller's user except the caller's own ("sign out
    /// everywhere else"); returns how many ended.
    @discardableResult
    func revokeOthers(of caller: Caller) async throws -> Int {
        let now = time.now()
        return try await database.transaction { db in
            let ended = try await Self.revokeAll(db, userID: caller.userID, sparing: caller.sessionID, now: now)
            try await AuditLog.record(db, userID: caller.userID, type: .otherSessionsRevoked, outcome: .success, at: now, sessionID: caller.sessionID)
            return ended
        }
    }

    /// Ends every live session of a user (but `sparing`, when given) inside the caller's transaction.
    static func revokeAll(_ db: any SQLDatabase, userID: String, sparing sessionID: String?, now: Date) async throws -> Int {
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now.millisecondsSince1970)
              AND id <> \(bind: sessionID ?? "")
            RETURNING id
            """).all().count
    }

    /// Records a primary authentication on a session (a re-authentication) inside the caller's
    /// transaction.
    static func markAuthenticated(_ db: any SQLDatabase, sessionID: String, now: Date) async throws {
        try await db.raw("UPDATE sessions SET authenticated_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: sessionID)").run()
    }

    /// A live session with its user, inside the caller's transaction.
    static func current(_ db: any SQLDatabase, _ caller: Caller, now: Date) async throws -> CurrentSessionResponse {
        guard let session = try await sessions(db, userID: caller.userID, id: caller.sessionID, now: now).first,
              let user = try await AccountService.user(db, id: caller.userID)
        else { throw APIError(.invalidSession, "The session has ended.") }
        return CurrentSessionResponse(session: session, user: user)
    }

    private static func sessions(_ db: any SQLDatabase, userID: String, id: String?, now: Date) async throws -> [Session] {
        var query = SQLQueryString("""
            SELECT id, user_id, method, registration_id, created_at, expires_at, authenticated_at, password_change_required FROM sessions
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
                    registrationID: try row.decode(column: "registration_id", as: String?.self)),
                authenticatedAt: try row.decodeDate(column: "authenticated_at"),
                passwordChangeRequired: try row.decode(column: "password_change_required", as: Int.self) != 0)
        }
    }
}
