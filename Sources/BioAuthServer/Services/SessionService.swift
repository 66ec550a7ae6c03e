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
    static func insert(
        _ db: any SQLDatabase, userID: String, authentication: Session.Authentication, minutes: Int, now: Date
    ) async throws -> (token: SessionToken, session: Session) {
        let token = SessionToken.generate()
        let session = Session(
            id: SecureRandom.identifier(.session), userID: userID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(minutes * 60)), authentication: authentication)
        try await db.raw("""
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, created_at, expires_at)
            VALUES (\(bind: session.id), \(bind: userID), \(bind: token.digest), \(bind: authentication.method.rawValue),
                    \(bind: authentication.registrationID), \(bind: session.createdAt.millisecondsSince1970),
                    \(bind: session.expiresAt.millisecondsSince1970))
            """).run()
        return (token, session)
    }

    /// The caller a bearer token names, if the session is live.
    func authenticate(token: String) async throws -> Caller {
        let digest = SessionToken.digest(of: token)
        let now = time.now().millisecondsSince1970
        let row = try await database.withDatabase { db in
            try await db.raw("""
                SELECT id, user_id FROM sessions
                WHERE token_hash = \(bind: digest) AND revoked_at IS NULL AND expires_at > \(bind: now)
                """).first()
        }
        guard let row else { throw APIError(.invalidSession, "The session token is unknown, expired or revoked.") }
        return Caller(sessionID: try row.decode(column: "id", as: String.self), userID: try row.decode(column: "user_id", as: String.self))
    }

    /// A live session of the caller's, with its user.
    func current(_ caller: Caller) async throws -> CurrentSessionResponse {
        try await database.withDatabase { db in
            guard let session = try await Self.sessions(db, userID: caller.userID, id: caller.sessionID, now: time.now()).first,
                  let user = try await AccountService.user(db, id: caller.userID)
            else { throw APIError(.invalidSession, "The session has ended.") }
            return CurrentSessionResponse(session: session, user: user)
        }
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

    private static func sessions(_ db: any SQLDatabase, userID: String, id: String?, now: Date) async throws -> [Session] {
        var query = SQLQueryString("""
            SELECT id, user_id, method, registration_id, created_at, expires_at FROM sessions
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
                    registrationID: try row.decode(column: "registration_id", as: String?.self)))
        }
    }
}
