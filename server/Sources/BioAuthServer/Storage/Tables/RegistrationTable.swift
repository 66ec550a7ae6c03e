import BioAuthProtocol
import Foundation
import SQLKit

/// The `registrations` table (device keys, biometric and PIN): every statement that reads or
/// writes it, inside the caller's transaction or connection.
enum RegistrationTable {
    private static let columns = """
        id, user_id, kind, algorithm, public_key, label, status, created_at, last_used_at,
        attestation_format, attestation_verdict, attestation_reason, attestation_security_level, attestation_app
        """

    /// A pending or active registration of the user's.
    static func find(_ db: any StatementDatabase, id: String, userID: String) async throws -> StoredRegistration? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM registrations
            WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status IN ('pending', 'active')
            """
        ).first().map(StoredRegistration.init(row:))
    }

    /// The user's pending and active registrations, newest first.
    static func all(_ db: any StatementDatabase, userID: String) async throws -> [StoredRegistration] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM registrations
            WHERE user_id = \(bind: userID) AND status IN ('pending', 'active') ORDER BY created_at DESC, id
            """
        ).all().map(StoredRegistration.init(row:))
    }

    /// How many registrations the user holds: pending and active, or only pending.
    static func count(_ db: any StatementDatabase, userID: String, pendingOnly: Bool) async throws -> Int {
        let statuses = pendingOnly ? "('pending')" : "('pending', 'active')"
        return try await db.raw(
            """
            SELECT COUNT(*) AS held FROM registrations WHERE user_id = \(bind: userID) AND status IN \(unsafeRaw: statuses)
            """
        ).first()?.decode(column: "held", as: Int.self) ?? 0
    }

    /// Whether this public key is registered (in any state).
    static func contains(_ db: any StatementDatabase, publicKey: DevicePublicKey) async throws -> Bool {
        try await db.raw("SELECT 1 AS known FROM registrations WHERE public_key = \(bind: publicKey.canonicalBytes)").first() != nil
    }

    /// Inserts a pending registration.
    static func insertPending(
        _ db: any StatementDatabase,
        id: String,
        userID: String,
        kind: RegistrationKind,
        key: DevicePublicKey,
        label: String,
        pinHash: String?,
        attestation: KeyAttestationResult?,
        evidence: Data?,
        now: Date
    ) async throws {
        try await db.raw(
            """
            INSERT INTO registrations (id, user_id, kind, algorithm, public_key, label, status, created_at, pin_hash,
                attestation_format, attestation_verdict, attestation_reason, attestation_security_level, attestation_app, attestation_evidence)
            VALUES (\(bind: id), \(bind: userID), \(bind: kind.rawValue), \(bind: key.algorithm.rawValue),
                    \(bind: key.canonicalBytes), \(bind: label), 'pending', \(bind: now.millisecondsSince1970), \(bind: pinHash),
                    \(bind: attestation?.format), \(bind: attestation?.verdict.rawValue), \(bind: attestation?.reason),
                    \(bind: attestation?.securityLevel), \(bind: attestation?.app), \(bind: evidence))
            """
        ).run()
    }

    /// The hardware evidence registration `id` was registered with (as the client sent it), if any.
    static func evidence(_ db: any StatementDatabase, id: String) async throws -> Data? {
        try await db.raw("SELECT attestation_evidence FROM registrations WHERE id = \(bind: id)").first()?
            .decode(column: "attestation_evidence", as: Data?.self)
    }

    /// Makes a pending registration active; whether it was still pending.
    static func activate(_ db: any StatementDatabase, id: String) async throws -> Bool {
        try await !db.raw("UPDATE registrations SET status = 'active' WHERE id = \(bind: id) AND status = 'pending' RETURNING id").all().isEmpty
    }

    /// The ids of the user's pending and active registrations, of one kind or all, but `except`.
    static func liveIDs(_ db: any StatementDatabase, userID: String, kind: RegistrationKind? = nil, except: String? = nil) async throws -> [String] {
        var query = SQLQueryString("SELECT id FROM registrations WHERE user_id = \(bind: userID) AND status IN ('pending', 'active')")
        if let kind {
            query.appendInterpolation(unsafeRaw: " AND kind = ")
            query.appendInterpolation(bind: kind.rawValue)
        }
        if let except {
            query.appendInterpolation(unsafeRaw: " AND id <> ")
            query.appendInterpolation(bind: except)
        }
        return try await db.raw(query).all().map { try $0.decode(column: "id", as: String.self) }
    }

    /// The owner, key and evidence's verdict of registration `id` if it is of `kind`, whatever its
    /// status (the completion's transaction checks that it is still active).
    static func signingKey(
        _ db: any StatementDatabase,
        id: String,
        kind: RegistrationKind
    ) async throws -> (userID: String, key: DevicePublicKey, verified: Bool)? {
        guard let row = try await db.first(SigningKey.self, .text(id), .text(kind.rawValue)) else { return nil }
        let key = try StoredRegistration.publicKey(algorithm: try row.enumeration(1, as: SignatureAlgorithm.self)) { try row.bytes(2) }
        return (try row.text(0), key, try row.optionalText(3) == KeyAttestationResult.Verdict.verified.rawValue)
    }

    /// A live (pending or active) device key as an operator lists it.
    struct LiveKey: Sendable, Equatable {
        var id: String
        var userID: String
        var username: String
        var kind: String
        var status: String
        /// The verdict on its evidence; `nil` when none was looked at.
        var verdict: String?
        var createdAt: Date
        /// When its account was created.
        var userCreatedAt: Date
    }

    /// Every live device key of every account whose evidence's verdict `filter` takes, oldest first.
    static func liveKeys(_ db: any StatementDatabase, verdict filter: KeyVerdictFilter) async throws -> [LiveKey] {
        var query = SQLQueryString(
            """
            SELECT r.id, r.user_id, u.username, r.kind, r.status, r.attestation_verdict, r.created_at, u.created_at AS user_created_at
            FROM registrations r JOIN users u ON u.id = r.user_id
            WHERE r.status IN ('pending', 'active') AND
            """
        )
        let verified = KeyAttestationResult.Verdict.verified.rawValue
        switch filter {
        case .none: query.appendInterpolation(unsafeRaw: " r.attestation_verdict IS NULL")
        case .unverified:
            query.appendInterpolation(unsafeRaw: " (r.attestation_verdict IS NULL OR r.attestation_verdict <> ")
            query.appendInterpolation(bind: verified)
            query.appendInterpolation(unsafeRaw: ")")
        case .verified, .absent, .refused:
            query.appendInterpolation(unsafeRaw: " r.attestation_verdict = ")
            query.appendInterpolation(bind: filter.rawValue)
        }
        query.appendInterpolation(unsafeRaw: " ORDER BY r.created_at, r.id")
        return try await db.raw(query).all().map { row in
            LiveKey(
                id: try row.decode(column: "id", as: String.self),
                userID: try row.decode(column: "user_id", as: String.self),
                username: try row.decode(column: "username", as: String.self),
                kind: try row.decode(column: "kind", as: String.self),
                status: try row.decode(column: "status", as: String.self),
                verdict: try row.decode(column: "attestation_verdict", as: String?.self),
                createdAt: try row.decodeDate(column: "created_at"),
                userCreatedAt: try row.decodeDate(column: "user_created_at")
            )
        }
    }

    /// The credential epoch of an active registration's owner (what a challenge for it carries), or
    /// `nil` when it is not active.
    static func activeOwnerEpoch(_ db: any StatementDatabase, id: String) async throws -> Int64? {
        try await db.first(ActiveOwnerEpoch.self, .text(id)).map { try $0.integer(0) }
    }

    /// ``signingKey(_:id:kind:)``'s query, run for every sign-in.
    enum SigningKey: PreparedStatementText {
        static let name = "bioauth_registration_signing_key"
        static let sql = "SELECT user_id, algorithm, public_key, attestation_verdict FROM registrations WHERE id = $1 AND kind = $2"
        static let parameters: [SQLType] = [.text, .text]
    }

    /// ``activeOwnerEpoch(_:id:)``'s query, run for every challenge. The owner's epoch is a
    /// subquery, not a join: SQLite (3.54) re-prepares a join that binds the key on every run.
    enum ActiveOwnerEpoch: PreparedStatementText {
        static let statement = NamedSQL(
            """
            SELECT (SELECT credential_epoch FROM users WHERE users.id = registrations.user_id) FROM registrations
            WHERE id = :credential_id AND status = 'active'
            """
        )
        static let name = "bioauth_registration_active_owner_epoch"
        static var sql: String { statement.text }
        static let parameters: [SQLType] = [.text]
    }

    /// Revokes a pending or active registration, dropping its kept evidence (the row stays, so its
    /// key can never be registered again).
    static func revoke(_ db: any StatementDatabase, id: String, now: Date) async throws {
        try await db.raw(
            """
            UPDATE registrations SET status = 'revoked', revoked_at = \(bind: now.millisecondsSince1970), attestation_evidence = NULL
            WHERE id = \(bind: id) AND status IN ('pending', 'active')
            """
        ).run()
    }

    /// Renames a pending or active registration of the user's; whether there was one.
    static func rename(_ db: any StatementDatabase, id: String, userID: String, label: String) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE registrations SET label = \(bind: label)
            WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status IN ('pending', 'active') RETURNING id
            """
        ).all().isEmpty
    }

    /// Records a verified use of the user's active registration (replacing a PIN key's hash when
    /// `newPINHash` is given); `false` when it is no longer active.
    static func markUsed(_ db: any StatementDatabase, id: String, userID: String, now: Date, newPINHash: String? = nil) async throws -> Bool {
        let bound: [String: SQLValue] = ["credential_id": .text(id), "user_id": .text(userID), "now": .time(now), "new_pin_hash": .text(newPINHash)]
        return try await !db.rows(markUsed, bound).isEmpty
    }

    /// Records a use at `:now` of `:user_id`'s active registration `:credential_id` (its PIN hash
    /// replaced by `:new_pin_hash` unless `NULL`) when `gate` holds, returning its user. The
    /// sign-in's completion runs it on both databases.
    static func markingUsed(when gate: String) -> String {
        """
        UPDATE registrations SET last_used_at = :now, pin_hash = COALESCE(:new_pin_hash, pin_hash)
        WHERE id = :credential_id AND user_id = :user_id AND status = 'active' AND \(gate) RETURNING user_id
        """
    }

    static let markUsed = NamedSQL(markingUsed(when: "true"))

    /// An active PIN key's stored PIN hash with its owner's username key.
    static func pin(_ db: any StatementDatabase, registrationID: String) async throws -> (usernameKey: String, hash: String)? {
        guard
            let row = try await db.raw(
                """
                SELECT u.username_key AS username_key, r.pin_hash AS pin_hash FROM registrations r JOIN users u ON u.id = r.user_id
                WHERE r.id = \(bind: registrationID) AND r.status = 'active' AND r.kind = 'pin'
                """
            ).first(), let hash = try row.decode(column: "pin_hash", as: String?.self)
        else { return nil }
        return (try row.decode(column: "username_key", as: String.self), hash)
    }

    /// Deletes registrations left pending since `cutoff` (and their challenges) that signed in no
    /// session; returns how many.
    static func purgePending(_ db: any StatementDatabase, createdBy cutoff: Int64) async throws -> Int {
        // A pending registration's challenge is issued with it and expires challengeTTL later.
        try await db.raw(
            """
            DELETE FROM challenges WHERE registration_id IN (
                SELECT id FROM registrations WHERE status = 'pending' AND created_at <= \(bind: cutoff))
            """
        ).run()
        return try await db.raw(
            """
            DELETE FROM registrations WHERE status = 'pending' AND created_at <= \(bind: cutoff)
              AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.registration_id = registrations.id)
            RETURNING id
            """
        ).all().count
    }
}

/// A registration row (a biometric or PIN device key) with its parsed key.
struct StoredRegistration: Sendable {
    var wire: Registration
    var userID: String
    var publicKey: DevicePublicKey

    var algorithm: SignatureAlgorithm { publicKey.algorithm }

    /// The key a row stores as its `algorithm` and `public_key` columns; `publicKey` reads the
    /// latter. A `public_key` that cannot be read, or is not a key of `algorithm`, makes the row corrupt.
    static func publicKey(algorithm: SignatureAlgorithm, _ publicKey: () throws -> Data) throws -> DevicePublicKey {
        guard let key = try? DevicePublicKey(algorithm: algorithm, canonicalBytes: publicKey()) else {
            throw CorruptRowError(column: "public_key")
        }
        return key
    }

    fileprivate init(row: any SQLRow) throws {
        publicKey = try Self.publicKey(algorithm: try row.decodeEnum(column: "algorithm", as: SignatureAlgorithm.self)) {
            try row.decode(column: "public_key", as: Data.self)
        }
        userID = try row.decode(column: "user_id", as: String.self)
        wire = Registration(
            id: try row.decode(column: "id", as: String.self),
            kind: try row.decodeEnum(column: "kind", as: RegistrationKind.self),
            algorithm: publicKey.algorithm,
            label: try row.decode(column: "label", as: String.self),
            status: try row.decodeEnum(column: "status", as: Registration.Status.self),
            createdAt: try row.decodeDate(column: "created_at"),
            lastUsedAt: try row.decodeOptionalDate(column: "last_used_at"),
            attestation: try row.decode(column: "attestation_verdict", as: String?.self).map { verdict in
                guard let verdict = KeyAttestationResult.Verdict(known: verdict) else { throw CorruptRowError(column: "attestation_verdict") }
                return KeyAttestationResult(
                    format: try row.decode(column: "attestation_format", as: String?.self),
                    verdict: verdict,
                    reason: try row.decode(column: "attestation_reason", as: String?.self),
                    securityLevel: try row.decode(column: "attestation_security_level", as: String?.self),
                    app: try row.decode(column: "attestation_app", as: String?.self)
                )
            }
        )
    }
}
