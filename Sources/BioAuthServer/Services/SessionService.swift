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
            throw Rejection(.invalidSessionDuration, "session_duration_minutes must be between \(ProtocolLimits.sessionDurationMinutes.lowerBound) and \(ProtocolLimits.sessionDurationMinutes.upperBound).")
        }
        return minutes
    }

    /// Creates a session inside the caller's transaction. The token is returned once and only its
    /// SHA-256 is stored.
    ///
    /// The sign-in is the session's first primary authentication (``Session/authenticatedAt``).
    static func insert(
        _ db: any StatementDatabase, userID: String, authentication: Session.Authentication, minutes: Int, now: Date,
        passwordChangeRequired: Bool = false
    ) async throws -> (token: SessionToken, session: Session) {
        let issued = make(userID: userID, authentication: authentication, minutes: minutes, now: now, passwordChangeRequired: passwordChangeRequired)
        try await SessionTable.insert(db, issued.session, tokenDigest: issued.token.digest)
        return issued
    }

    /// A new token and the session it would open, not yet stored.
    static func make(
        userID: String, authentication: Session.Authentication, minutes: Int, now: Date, passwordChangeRequired: Bool = false
    ) -> (token: SessionToken, session: Session) {
        let idBytes = SecureRandom.identifierBytes()
        let session = Session(
            id: IdentifierPrefix.session.spelling(idBytes), userID: userID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(minutes * 60)), authentication: authentication,
            passwordChangeRequired: passwordChangeRequired)
        return (SessionToken.generate(sessionIDBytes: idBytes), session)
    }

    /// The caller a bearer token names, if the session is live. Text that cannot be a token this
    /// server issued is refused without a query.
    func authenticate(token: String) async throws -> Caller {
        let now = time.now()
        guard let lookup = SessionToken.lookup(token),
              let caller = try await database.read({ db in try await SessionTable.caller(db, lookup, now: now) }) else {
            throw Rejection(.invalidSession, "The session token is unknown, expired or revoked.")
        }
        return caller
    }

    /// A live session of the caller's, with its user.
    func current(_ caller: Caller) async throws -> CurrentSessionResponse {
        let now = time.now()
        return try await database.read { db in try await Self.current(db, caller, now: now) }
    }

    /// The caller's live sessions, newest first.
    func list(_ caller: Caller) async throws -> [Session] {
        try await database.read { db in
            try await SessionTable.live(db, userID: caller.userID, now: time.now())
        }
    }

    /// Ends one of the caller's live sessions (the current one or another).
    func revoke(_ sessionID: String, of caller: Caller) async throws {
        let now = time.now()
        let isCurrent = sessionID == caller.sessionID
        let ended = try await database.transaction { db in
            guard try await SessionTable.revoke(db, id: sessionID, userID: caller.userID, now: now) else { return false }
            try await AuditLog.record(db, userID: caller.userID, type: isCurrent ? .sessionSignedOut : .sessionRevoked,
                                      outcome: .success, at: now, sessionID: sessionID)
            return true
        }
        guard ended else {
            throw isCurrent
                ? Rejection(.invalidSession, "The session has ended.")
                : Rejection(.notFound, "No such session.")
        }
    }

    /// Ends every live session of the caller's user except the caller's own ("sign out
    /// everywhere else"); returns how many ended.
    @discardableResult
    func revokeOthers(of caller: Caller) async throws -> Int {
        let now = time.now()
        return try await database.transaction { db in
            let ended = try await SessionTable.revokeAll(db, userID: caller.userID, sparing: caller.sessionID, now: now)
            try await AuditLog.record(db, userID: caller.userID, type: .otherSessionsRevoked, outcome: .success, at: now, sessionID: caller.sessionID)
            return ended
        }
    }

    /// A live session with its user, inside the caller's transaction.
    static func current(_ db: any StatementDatabase, _ caller: Caller, now: Date) async throws -> CurrentSessionResponse {
        guard let session = try await SessionTable.live(db, userID: caller.userID, id: caller.sessionID, now: now).first,
              let user = try await UserTable.user(db, id: caller.userID)
        else { throw Rejection(.invalidSession, "The session has ended.") }
        return CurrentSessionResponse(session: session, user: user)
    }
}
