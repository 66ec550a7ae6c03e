import BioAuthProtocol
import Foundation
import SQLKit

/// A service credential as stored and listed (never its secret: only the secret's SHA-256 is kept).
package struct StoredServiceCredential: Sendable, Equatable, CustomStringConvertible {
    /// `svc_…`
    package var id: String
    /// The operator's name for the backend.
    package var name: String
    /// Where its confirmations' outcomes are posted, if anywhere.
    package var webhookURL: String?
    /// When it was made.
    package var createdAt: Date
    /// When it was revoked, if it was.
    package var revokedAt: Date?

    /// `svc_… name [webhook URL] created … [revoked …]`.
    package var description: String {
        [
            id, name, webhookURL.map { "webhook \($0)" }, "created \(WireJSON.formatTimestamp(createdAt))",
            revokedAt.map { "revoked \(WireJSON.formatTimestamp($0))" },
        ].compactMap { $0 }.joined(separator: " ")
    }
}

/// The `service_credentials` table: the bank backends' credentials.
enum ServiceCredentialTable {
    /// Stores a new credential whose secret hashes to `digest`.
    static func insert(_ db: any StatementDatabase, _ credential: StoredServiceCredential, digest: Data) async throws {
        try await db.raw(
            """
            INSERT INTO service_credentials (id, name, secret_hash, webhook_url, created_at)
            VALUES (\(bind: credential.id), \(bind: credential.name), \(bind: digest), \(bind: credential.webhookURL),
                    \(bind: credential.createdAt.millisecondsSince1970))
            """
        ).run()
    }

    /// The live credential `lookup` names, if its stored digest is the presented one.
    static func live(_ db: any StatementDatabase, _ lookup: SessionToken.Lookup) async throws -> StoredServiceCredential? {
        try await db.raw(
            """
            SELECT id, name, webhook_url, created_at, revoked_at FROM service_credentials
            WHERE id = \(bind: lookup.id) AND secret_hash = \(bind: lookup.digest) AND revoked_at IS NULL
            """
        ).first().map(credential)
    }

    /// Credential `id`, revoked or not.
    static func find(_ db: any StatementDatabase, id: String) async throws -> StoredServiceCredential? {
        try await db.raw("SELECT id, name, webhook_url, created_at, revoked_at FROM service_credentials WHERE id = \(bind: id)")
            .first().map(credential)
    }

    /// Every credential, oldest first.
    static func all(_ db: any StatementDatabase) async throws -> [StoredServiceCredential] {
        try await db.raw("SELECT id, name, webhook_url, created_at, revoked_at FROM service_credentials ORDER BY created_at, id")
            .all().map(credential)
    }

    /// Revokes credential `id` at `now`; false when there is none or it was revoked before.
    static func revoke(_ db: any StatementDatabase, id: String, now: Date) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE service_credentials SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING id
            """
        ).all().isEmpty
    }

    private static func credential(_ row: any SQLRow) throws -> StoredServiceCredential {
        StoredServiceCredential(
            id: try row.decode(column: "id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            webhookURL: try row.decode(column: "webhook_url", as: String?.self),
            createdAt: try row.decodeDate(column: "created_at"),
            revokedAt: try row.decodeOptionalDate(column: "revoked_at")
        )
    }
}
