import BioAuthProtocol
import Foundation

/// Sessions: issuing tokens, recognising them, listing and ending sessions.
struct SessionService: Sendable {
    let core: AccountCore
    var database: any DatabaseProvider { core.database }
    var time: TimeSource { core.time }
    var policy: SessionPolicy { core.sessions }

    /// The caller a bearer token names, if the session is live (and, with an idle timeout, was used
    /// within it). Text that cannot be a token this server issued is refused without a query.
    func authenticate(token: String) async throws -> Caller {
        let now = time.now()
        let idleSince = policy.idleMinutes.map { now.addingTimeInterval(-TimeInterval($0 * 60)) }
        guard let lookup = SessionToken.lookup(token),
            let caller = try await database.read({ db in try await SessionTable.caller(db, lookup, now: now, idleSince: idleSince) })
        else {
            throw Rejection(.invalidSession, "The session token is unknown, expired, revoked or idle too long.")
        }
        if let granularity = policy.lastSeenGranularity, now.timeIntervalSince(caller.lastSeenAt) >= granularity.timeInterval {
            try await database.withDatabase { db in try await SessionTable.touch(db, id: caller.sessionID, now: now) }
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
        try await core.change(.sessionEnded(sessionID, by: caller))
    }

    /// Ends every live session of the caller's user except the caller's own ("sign out
    /// everywhere else"), and every sign-in still being checked (the credential epoch moves on);
    /// returns how many ended.
    @discardableResult
    func revokeOthers(of caller: Caller) async throws -> Int {
        try await core.change(.otherSessionsEnded(by: caller)).sessions
    }

    /// A live session with its user, inside the caller's transaction.
    static func current(_ db: any StatementDatabase, _ caller: Caller, now: Date) async throws -> CurrentSessionResponse {
        guard let session = try await SessionTable.live(db, userID: caller.userID, id: caller.sessionID, now: now).first,
            let user = try await UserTable.user(db, id: caller.userID)
        else { throw Rejection(.invalidSession, "The session has ended.") }
        return CurrentSessionResponse(session: session, user: user)
    }
}
