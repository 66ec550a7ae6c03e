import BioAuthProtocol
import Foundation
import SQLKit

/// The audit trail: what happened to an account, newest first. Events are written inside the
/// same transaction as the change they describe, so the trail never claims what did not happen.
struct AuditLog: Sendable {
    /// How many events a listing shows.
    static let listLimit = 100

    let database: any DatabaseProvider

    /// Records an event (within the caller's transaction when `db` belongs to one).
    static func record(
        _ db: any SQLDatabase, userID: String, type: AuditEvent.Kind, outcome: AuditEvent.Outcome,
        at now: Date, registrationID: String? = nil, sessionID: String? = nil
    ) async throws {
        try await db.raw("""
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id)
            VALUES (\(bind: SecureRandom.identifier(.event)), \(bind: userID), \(bind: type.rawValue), \(bind: outcome.rawValue),
                    \(bind: now.millisecondsSince1970), \(bind: registrationID), \(bind: sessionID))
            """).run()
    }

    /// The user's newest events.
    func events(of userID: String) async throws -> [AuditEvent] {
        try await database.withDatabase { db in
            try await db.raw("""
                SELECT id, type, outcome, created_at, registration_id, session_id FROM audit_events
                WHERE user_id = \(bind: userID) ORDER BY seq DESC LIMIT \(bind: Self.listLimit)
                """).all().map { row in
                AuditEvent(
                    id: try row.decode(column: "id", as: String.self),
                    type: try row.decodeEnum(column: "type", as: AuditEvent.Kind.self),
                    outcome: try row.decodeEnum(column: "outcome", as: AuditEvent.Outcome.self),
                    createdAt: try row.decodeDate(column: "created_at"),
                    registrationID: try row.decode(column: "registration_id", as: String?.self),
                    sessionID: try row.decode(column: "session_id", as: String?.self)
                )
            }
        }
    }
}
