import BioAuthProtocol
import Foundation
import SQLKit

/// The audit trail: what happened to an account, newest first. Events are written inside the
/// same transaction as the change they describe, so the trail never claims what did not happen.
///
/// Failures by callers who have not proved they own the account (a wrong password, a bad
/// signature for someone's registration) are *counted*: one row per account, kind and hour
/// (`audit_tallies`), so that nobody who knows a username or a registration id can flood the
/// trail. Password failures are counted under the username, whether or not it has an account, so
/// a failure does the same writes for a real account and an unknown one.
struct AuditLog: Sendable {
    /// How many events a listing shows.
    static let listLimit = 100
    /// The span one counted row covers.
    static let tallyWindowMilliseconds: Int64 = 60 * 60 * 1000

    let database: any DatabaseProvider

    /// Who counted failures belong to.
    enum Subject: Sendable {
        /// An account.
        case user(String)
        /// A normalised username, which may or may not have an account.
        case username(String)

        var key: String {
            switch self {
            case .user(let id): "user:" + id
            case .username(let key): "name:" + key
            }
        }
    }

    /// Records an event (within the caller's transaction when `db` belongs to one).
    ///
    /// A passkey's id is kept in the `registration_id` column (both name the credential
    /// involved); the listing tells them apart by their prefixes, `reg_` and `pk_`.
    static func record(
        _ db: any StatementDatabase,
        userID: String,
        type: AuditEvent.Kind,
        outcome: AuditEvent.Outcome,
        at now: Date,
        registrationID: String? = nil,
        passkeyID: String? = nil,
        sessionID: String? = nil
    ) async throws {
        let bound: [String: SQLValue] = [
            "event_id": .text(SecureRandom.identifier(.event)), "user_id": .text(userID), "event_kind": .text(type.rawValue),
            "outcome": .text(outcome.rawValue), "now": .time(now), "credential_id": .text(registrationID ?? passkeyID ?? ""),
            "session_id": .text(sessionID),
        ]
        _ = try await db.rows(record, bound)
    }

    /// Inserts event `id` of kind `kind` and `outcome` (SQL expressions) for `:user_id` at `:now`,
    /// naming the credential `:credential_id` (none when empty) and the session `session`, one for
    /// each row of `source` (a `FROM` clause, or nothing) when `gate` holds. The sign-in's
    /// completion runs it on both databases.
    static func recording(id: String, kind: String, outcome: String, session: String, from source: String = "", when gate: String) -> String {
        """
        INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
        SELECT \(id), :user_id, \(kind), \(outcome), :now, NULLIF(:credential_id, ''), \(session) \(source) WHERE \(gate)
        """
    }

    static let record = NamedSQL(
        recording(id: ":event_id", kind: ":event_kind", outcome: ":outcome", session: ":session_id", when: "true")
    )

    /// Counts one more failure (or locked attempt) of `subject` in the current hour.
    static func count(
        _ db: any StatementDatabase,
        _ subject: Subject,
        type: AuditEvent.Kind,
        outcome: AuditEvent.Outcome,
        at now: Date,
        registrationID: String? = nil,
        passkeyID: String? = nil
    ) async throws {
        var bound = tallyBindings(subject, type: type, at: now)
        bound["outcome"] = .text(outcome.rawValue)
        bound["credential_id"] = .text(registrationID ?? passkeyID ?? "")
        _ = try await db.rows(count, bound)
    }

    /// Adds one to the tally of `:subject`'s `:tally_kind` with `outcome` (an SQL expression) for
    /// the credential `:credential_id` in the window that began at `:window_start`, when `gate`
    /// holds. The sign-in's completion runs it on both databases.
    static func counting(outcome: String, when gate: String) -> String {
        """
        INSERT INTO audit_tallies (id, subject, type, outcome, registration_id, window_start, count, last_at)
        SELECT :tally_id, :subject, :tally_kind, \(outcome), :credential_id, :window_start, 1, :now WHERE \(gate)
        ON CONFLICT (subject, type, outcome, registration_id, window_start)
        DO UPDATE SET count = audit_tallies.count + 1, last_at = excluded.last_at
        """
    }

    private static let count = NamedSQL(counting(outcome: ":outcome", when: "true"))

    /// The bindings of ``counting(outcome:when:)`` but the outcome and the credential: a tally of
    /// `subject`'s `type` (none when `nil`) at `now`.
    static func tallyBindings(_ subject: Subject?, type: AuditEvent.Kind, at now: Date) -> [String: SQLValue] {
        let at = now.millisecondsSince1970
        return [
            "tally_id": .text(SecureRandom.identifier(.event)), "subject": .text(subject?.key ?? ""), "tally_kind": .text(type.rawValue),
            "window_start": .integer(at - at % tallyWindowMilliseconds), "now": .integer(at),
        ]
    }

    /// The user's newest events, counted ones included (those under the username only from the
    /// account's creation on).
    func events(of userID: String) async throws -> [AuditEvent] {
        try await database.read { db in
            guard let user = try await db.raw("SELECT username_key, created_at FROM users WHERE id = \(bind: userID)").first() else { return [] }
            let usernameKey = try user.decode(column: "username_key", as: String.self)
            let createdAt = try user.decode(column: "created_at", as: Int64.self)
            let recorded = try await db.raw(
                """
                SELECT id, type, outcome, created_at, registration_id, session_id FROM audit_events
                WHERE user_id = \(bind: userID) ORDER BY seq DESC LIMIT \(bind: Self.listLimit)
                """
            ).all().map { row in
                try Self.event(row, at: "created_at", sessionID: try row.decode(column: "session_id", as: String?.self))
            }
            let counted = try await db.raw(
                """
                SELECT id, type, outcome, last_at, registration_id, count FROM audit_tallies
                WHERE subject = \(bind: Subject.user(userID).key)
                   OR (subject = \(bind: Subject.username(usernameKey).key) AND last_at >= \(bind: createdAt))
                ORDER BY last_at DESC LIMIT \(bind: Self.listLimit)
                """
            ).all().map { row in
                try Self.event(row, at: "last_at", count: try row.decode(column: "count", as: Int.self))
            }
            // Both lists are newest first; a stable merge keeps recorded events in their order.
            return (recorded + counted).enumerated()
                .sorted { $0.element.createdAt != $1.element.createdAt ? $0.element.createdAt > $1.element.createdAt : $0.offset < $1.offset }
                .prefix(Self.listLimit).map(\.element)
        }
    }

    /// An event from a row of either table, its time from `timeColumn`. The stored credential id
    /// (empty in a tally without one) is a registration's or a passkey's, by its prefix.
    private static func event(_ row: any SQLRow, at timeColumn: String, sessionID: String? = nil, count: Int? = nil) throws -> AuditEvent {
        let credential = try row.decode(column: "registration_id", as: String?.self).flatMap { $0.isEmpty ? nil : $0 }
        let isPasskey = credential?.hasPrefix(IdentifierPrefix.passkey.rawValue) == true
        return AuditEvent(
            id: try row.decode(column: "id", as: String.self),
            type: try row.decodeEnum(column: "type", as: AuditEvent.Kind.self),
            outcome: try row.decodeEnum(column: "outcome", as: AuditEvent.Outcome.self),
            createdAt: try row.decodeDate(column: timeColumn),
            registrationID: isPasskey ? nil : credential,
            passkeyID: isPasskey ? credential : nil,
            sessionID: sessionID,
            count: count
        )
    }

    /// Deletes events and counted failures last written at or before `cutoff`; returns how many.
    static func purge(_ db: any StatementDatabase, writtenBy cutoff: Int64) async throws -> Int {
        try await db.raw("DELETE FROM audit_events WHERE created_at <= \(bind: cutoff) RETURNING id").all().count
            + db.raw("DELETE FROM audit_tallies WHERE last_at <= \(bind: cutoff) RETURNING id").all().count
    }
}
