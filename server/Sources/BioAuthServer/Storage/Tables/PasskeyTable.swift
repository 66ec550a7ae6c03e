import BioAuthProtocol
import BioAuthWebAuthn
import Foundation
import SQLKit

/// The `passkeys` table: every statement that reads or writes it, inside the caller's
/// transaction or connection. A passkey is active until revoked; a revoked row is kept (its
/// credential id stays taken, so a deleted passkey cannot be registered again unseen).
enum PasskeyTable {
    private static let columns = """
        id, user_id, credential_id, public_key, algorithm, sign_count, aaguid, backup_eligible, backed_up, transports,
        attestation_format, label, status, created_at, last_used_at
        """

    /// Stores a verified registration; `false` when its credential id is already taken (§7.1
    /// step 27: by any user, in any state).
    static func insert(
        _ db: any StatementDatabase,
        id: String,
        userID: String,
        _ registration: VerifiedRegistration,
        label: String,
        now: Date,
        isUniqueViolation: @Sendable (any Error) -> Bool
    ) async throws -> Bool {
        do {
            try await db.raw(
                """
                INSERT INTO passkeys (\(unsafeRaw: columns))
                VALUES (\(bind: id), \(bind: userID), \(bind: Data(registration.credentialID)), \(bind: Data(registration.publicKey)),
                        \(bind: Int(registration.algorithm.rawValue)), \(bind: Int64(registration.signCount)),
                        \(bind: registration.aaguid.uuidString.lowercased()), \(bind: registration.backupEligible ? 1 : 0),
                        \(bind: registration.backedUp ? 1 : 0), \(bind: registration.transports.joined(separator: ",")),
                        \(bind: registration.attestationFormat), \(bind: label), 'active', \(bind: now.millisecondsSince1970), NULL)
                """
            ).run()
            return true
        } catch  where isUniqueViolation(error) {
            return false
        }
    }

    /// The user's active passkeys, newest first.
    static func all(_ db: any StatementDatabase, userID: String) async throws -> [StoredPasskey] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM passkeys WHERE user_id = \(bind: userID) AND status = 'active' ORDER BY created_at DESC, id
            """
        ).all().map(StoredPasskey.init(row:))
    }

    /// Every passkey the user holds, active or revoked, as a descriptor and whether it is active
    /// (a registration's `excludeCredentials` names them all: an authenticator that already made
    /// one for this account should not make another, and a revoked one could not be registered
    /// again anyway; the active ones count toward the limit).
    static func credentials(
        _ db: any StatementDatabase,
        userID: String
    ) async throws -> [(descriptor: PublicKeyCredentialDescriptorJSON, isActive: Bool)] {
        try await db.raw(
            """
            SELECT credential_id, transports, status FROM passkeys WHERE user_id = \(bind: userID) ORDER BY created_at
            """
        ).all().map { row in
            (
                PublicKeyCredentialDescriptorJSON(
                    id: Base64URLBytes(try row.decode(column: "credential_id", as: Data.self)),
                    transports: StoredPasskey.transports(try row.decode(column: "transports", as: String.self))
                ),
                try row.decode(column: "status", as: String.self) == "active"
            )
        }
    }

    /// An active passkey of the user's, by id.
    static func find(_ db: any StatementDatabase, id: String, userID: String) async throws -> StoredPasskey? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM passkeys WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status = 'active'
            """
        ).first().map(StoredPasskey.init(row:))
    }

    /// An active passkey (or one in any state) by credential id, whoever owns it.
    static func find(_ db: any StatementDatabase, credentialID: [UInt8], anyStatus: Bool = false) async throws -> StoredPasskey? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: columns) FROM passkeys WHERE credential_id = \(bind: Data(credentialID))
            \(unsafeRaw: anyStatus ? "" : "AND status = 'active'")
            """
        ).first().map(StoredPasskey.init(row:))
    }

    /// Records a verified assertion: the new counter and backup state, and the time. Only
    /// while the user's passkey is active and its counter is still `expectedSignCount`, so that of two
    /// racing assertions with the same counter only one counts; `false` otherwise.
    static func markUsed(
        _ db: any StatementDatabase,
        id: String,
        userID: String,
        expectedSignCount: UInt32,
        signCount: UInt32,
        backedUp: Bool,
        now: Date
    ) async throws -> Bool {
        let bound: [String: SQLValue] = [
            "credential_id": .text(id), "user_id": .text(userID), "verified_count": .integer(Int64(expectedSignCount)),
            "sign_count": .integer(Int64(signCount)), "backed_up": .integer(backedUp ? 1 : 0), "now": .time(now),
        ]
        return try await !db.rows(markUsed, bound).isEmpty
    }

    /// Records a verified assertion of `:user_id`'s active passkey `:credential_id` whose counter is
    /// still `:verified_count` (its new counter `:sign_count`, backup state `:backed_up`, time `:now`)
    /// when `gate` holds, returning its user. The sign-in's completion runs it on both databases.
    static func markingUsed(when gate: String) -> String {
        """
        UPDATE passkeys SET sign_count = :sign_count, backed_up = :backed_up, last_used_at = :now
        WHERE id = :credential_id AND user_id = :user_id AND status = 'active' AND sign_count = :verified_count AND \(gate)
        RETURNING user_id
        """
    }

    private static let markUsed = NamedSQL(markingUsed(when: "true"))

    /// Renames an active passkey of the user's; whether there was one.
    static func rename(_ db: any StatementDatabase, id: String, userID: String, label: String) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE passkeys SET label = \(bind: label) WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status = 'active' RETURNING id
            """
        ).all().isEmpty
    }

    /// How many active passkeys the user has.
    static func activeCount(_ db: any StatementDatabase, userID: String) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS held FROM passkeys WHERE user_id = \(bind: userID) AND status = 'active'")
            .first()?.decode(column: "held", as: Int.self) ?? 0
    }

    /// Revokes an active passkey of the user's (or every one, without `id`); returns the ids revoked.
    static func revoke(_ db: any StatementDatabase, id: String? = nil, userID: String, now: Date) async throws -> [String] {
        var query = SQLQueryString(
            """
            UPDATE passkeys SET status = 'revoked', revoked_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = \(bind: userID) AND status = 'active'
            """
        )
        if let id {
            query.appendInterpolation(unsafeRaw: " AND id = ")
            query.appendInterpolation(bind: id)
        }
        query.appendInterpolation(unsafeRaw: " RETURNING id")
        return try await db.raw(query).all().map { try $0.decode(column: "id", as: String.self) }
    }
}

/// A passkey row.
struct StoredPasskey: Sendable {
    var id: String
    var userID: String
    var credentialID: [UInt8]
    var publicKey: [UInt8]
    var algorithm: Int
    var signCount: UInt32
    var aaguid: String
    var backupEligible: Bool
    var backedUp: Bool
    var transports: [String]
    var attestationFormat: String
    var label: String
    var createdAt: Date
    var lastUsedAt: Date?

    /// The passkey as `allowCredentials` names it.
    var descriptor: PublicKeyCredentialDescriptorJSON {
        PublicKeyCredentialDescriptorJSON(id: Base64URLBytes(credentialID), transports: transports)
    }

    /// The transports a row stores, sorted and each once, as `getTransports()` reports them.
    static func transports(_ stored: String) -> [String] {
        Array(Set(stored.split(separator: ",").map(String.init))).sorted()
    }

    fileprivate init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: String.self)
        userID = try row.decode(column: "user_id", as: String.self)
        credentialID = Array(try row.decode(column: "credential_id", as: Data.self))
        publicKey = Array(try row.decode(column: "public_key", as: Data.self))
        algorithm = try row.decode(column: "algorithm", as: Int.self)
        let count = try row.decode(column: "sign_count", as: Int64.self)
        guard let signCount = UInt32(exactly: count) else { throw CorruptRowError(column: "sign_count") }
        self.signCount = signCount
        aaguid = try row.decode(column: "aaguid", as: String.self)
        backupEligible = try row.decode(column: "backup_eligible", as: Int.self) != 0
        backedUp = try row.decode(column: "backed_up", as: Int.self) != 0
        transports = Self.transports(try row.decode(column: "transports", as: String.self))
        attestationFormat = try row.decode(column: "attestation_format", as: String.self)
        label = try row.decode(column: "label", as: String.self)
        createdAt = try row.decodeDate(column: "created_at")
        lastUsedAt = try row.decodeOptionalDate(column: "last_used_at")
    }
}
