import BioAuthProtocol
import Foundation
import SQLKit

/// A confirmation as stored: what a backend asked, and what became of it.
struct StoredConfirmation: Sendable, Equatable {
    var id: String
    var userID: String
    /// The service credential that asked.
    var serviceCredentialID: String
    var details: ConfirmationDetails
    /// The canonical details (``ConfirmationDetails/canonicalJSON(confirmationID:)``), as hashed.
    var canonical: String
    var detailsHash: Data
    /// As stored: `pending`, `approved`, `declined` or `blocked` (``status(at:)`` reads `expired`).
    var storedStatus: ConfirmationStatus
    var failures: Int
    var createdAt: Date
    var expiresAt: Date
    var decidedAt: Date?
    var factor: AuthenticationMethod?
    var registrationID: String?
    var passkeyID: String?
    var receipt: String?

    /// Where it stands at `now`: a pending one past its expiry is `expired`.
    func status(at now: Date) -> ConfirmationStatus {
        storedStatus == .pending && expiresAt <= now ? .expired : storedStatus
    }

    /// The contract's value at `now`.
    func wire(at now: Date) -> Confirmation {
        Confirmation(
            id: id,
            userID: userID,
            status: status(at: now),
            details: details,
            detailsHash: Base64URLBytes(detailsHash),
            text: ConfirmationText(details).map(ConfirmationTextBody.init) ?? ConfirmationTextBody(title: "", lines: []),
            createdAt: createdAt,
            expiresAt: expiresAt,
            decidedAt: decidedAt,
            factor: factor,
            registrationID: registrationID,
            passkeyID: passkeyID,
            receipt: receipt
        )
    }
}

/// The `confirmations` table: every statement that reads or writes it. An approval's change and
/// a failed approval's count are fragments the account core's completion runs
/// (``approving(when:)``, ``failing(when:)``), in its one transaction.
enum ConfirmationTable {
    /// How many decided or expired confirmations a listing shows after the pending ones.
    static let latestListed = 20
    /// How many pending confirmations a listing shows at most (the oldest).
    static let pendingListed = 100
    /// Approvals in a row that did not hold before a confirmation is blocked.
    static let maxFailures = 5

    private static let columns = """
        id, user_id, service_credential_id, details, details_hash, status, failures, created_at, expires_at, decided_at, factor,
        registration_id, passkey_id, receipt
        """

    /// Stores a new pending confirmation.
    static func insert(_ db: any StatementDatabase, _ c: StoredConfirmation) async throws {
        try await db.raw(
            """
            INSERT INTO confirmations (id, user_id, service_credential_id, kind, details, details_hash, status, failures, created_at, expires_at)
            VALUES (\(bind: c.id), \(bind: c.userID), \(bind: c.serviceCredentialID), \(bind: c.details.kind.rawValue), \(bind: c.canonical),
                    \(bind: c.detailsHash), 'pending', 0, \(bind: c.createdAt.millisecondsSince1970), \(bind: c.expiresAt.millisecondsSince1970))
            """
        ).run()
    }

    /// Confirmation `id`, whoever it belongs to.
    static func find(_ db: any StatementDatabase, id: String) async throws -> StoredConfirmation? {
        try await db.raw("SELECT \(unsafeRaw: columns) FROM confirmations WHERE id = \(bind: id)").first().map(confirmation)
    }

    /// The user's pending confirmations at `now`, oldest first (at most ``pendingListed``), then
    /// their ``latestListed`` latest others (decided, blocked or expired), newest first.
    static func list(_ db: any StatementDatabase, userID: String, now: Date) async throws -> [StoredConfirmation] {
        let at = now.millisecondsSince1970
        let pending = try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM confirmations
            WHERE user_id = \(bind: userID) AND status = 'pending' AND expires_at > \(bind: at)
            ORDER BY created_at, id LIMIT \(bind: pendingListed)
            """
        ).all()
        let others = try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM confirmations
            WHERE user_id = \(bind: userID) AND (status <> 'pending' OR expires_at <= \(bind: at))
            ORDER BY created_at DESC, id DESC LIMIT \(bind: latestListed)
            """
        ).all()
        return try (pending + others).map(confirmation)
    }

    /// Declines the user's pending, unexpired confirmation `id` at `now`; false when there is none.
    static func decline(_ db: any StatementDatabase, id: String, userID: String, now: Date) async throws -> Bool {
        let at = now.millisecondsSince1970
        return try await !db.raw(
            """
            UPDATE confirmations SET status = 'declined', decided_at = \(bind: at)
            WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status = 'pending' AND expires_at > \(bind: at) RETURNING id
            """
        ).all().isEmpty
    }

    /// The account's pending, unexpired confirmation `:confirmation_id` with fewer than
    /// ``maxFailures`` failures becomes approved at `:now` by `:factor` with the credential
    /// `:credential_id` (of kind `:credential_kind`, `device_key` or `passkey`) and the receipt
    /// `:receipt`, when `gate` holds; returns its id. The completion runs it on both databases.
    static func approving(when gate: String) -> String {
        """
        UPDATE confirmations SET status = 'approved', decided_at = :now, factor = :factor,
            registration_id = CASE WHEN :credential_kind = 'device_key' THEN :credential_id END,
            passkey_id = CASE WHEN :credential_kind = 'passkey' THEN :credential_id END, receipt = :receipt
        WHERE id = :confirmation_id AND user_id = :user_id AND status = 'pending' AND expires_at > :now
            AND failures < \(maxFailures) AND \(gate)
        RETURNING id
        """
    }

    static let approve = NamedSQL(approving(when: "true"))

    /// One more failed approval of the account's pending, unexpired confirmation
    /// `:confirmation_id` at `:now`, when `gate` holds: the ``maxFailures``th blocks it. The
    /// completion runs it on both databases.
    static func failing(when gate: String) -> String {
        """
        UPDATE confirmations SET failures = failures + 1,
            status = CASE WHEN failures + 1 >= \(maxFailures) THEN 'blocked' ELSE status END,
            decided_at = CASE WHEN failures + 1 >= \(maxFailures) THEN :now ELSE decided_at END
        WHERE id = :confirmation_id AND user_id = :user_id AND status = 'pending' AND expires_at > :now AND \(gate)
        RETURNING id
        """
    }

    static let fail = NamedSQL(failing(when: "true"))

    /// Deletes confirmations that expired at or before `cutoff` (approved, declined and blocked ones
    /// too: each expires within an hour of its creation, and its outcome is the backend's to keep,
    /// its receipt with it); returns how many.
    static func purge(_ db: any StatementDatabase, expiredBy cutoff: Int64) async throws -> Int {
        try await db.raw("DELETE FROM confirmations WHERE expires_at <= \(bind: cutoff) RETURNING id").all().count
    }

    private static func confirmation(_ row: any SQLRow) throws -> StoredConfirmation {
        let id = try row.decode(column: "id", as: String.self)
        let canonical = try row.decode(column: "details", as: String.self)
        guard var details = try? WireJSON.makeDecoder().decode(ConfirmationDetails.self, from: Data(canonical.utf8)) else {
            throw CorruptRowError(column: "details")
        }
        details.unknownFields.removeAll { $0 == "confirmation_id" }  // the canonical form's own member
        return StoredConfirmation(
            id: id,
            userID: try row.decode(column: "user_id", as: String.self),
            serviceCredentialID: try row.decode(column: "service_credential_id", as: String.self),
            details: details,
            canonical: canonical,
            detailsHash: try row.decode(column: "details_hash", as: Data.self),
            storedStatus: try row.decodeEnum(column: "status", as: ConfirmationStatus.self),
            failures: try row.decode(column: "failures", as: Int.self),
            createdAt: try row.decodeDate(column: "created_at"),
            expiresAt: try row.decodeDate(column: "expires_at"),
            decidedAt: try row.decodeOptionalDate(column: "decided_at"),
            factor: try row.decode(column: "factor", as: String?.self).map { AuthenticationMethod(rawValue: $0) },
            registrationID: try row.decode(column: "registration_id", as: String?.self),
            passkeyID: try row.decode(column: "passkey_id", as: String?.self),
            receipt: try row.decode(column: "receipt", as: String?.self)
        )
    }
}
