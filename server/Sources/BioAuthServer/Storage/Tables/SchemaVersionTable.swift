import Foundation
import SQLKit

/// `schema_migrations`: the versions of ``Schema`` a database has applied.
enum SchemaVersionTable {
    /// Creates the table when it is missing.
    static func create(_ db: any StatementDatabase) async throws {
        try await db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)")
            .run()
    }

    /// Serialises migrations of instances starting together on one PostgreSQL (until the end of the
    /// transaction); SQLite's `BEGIN IMMEDIATE` already does.
    static func lock(_ db: any StatementDatabase, _ flavor: SQLFlavor) async throws {
        if flavor == .postgres {
            try await db.raw("SELECT pg_advisory_xact_lock(7406150601) AS locked").run()
        }
    }

    /// The newest version applied; 0 for a new database.
    static func current(_ db: any StatementDatabase) async throws -> Int {
        try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?.decode(column: "version", as: Int?.self) ?? 0
    }

    /// Records `migration` as applied at `now`.
    static func record(_ db: any StatementDatabase, _ migration: Migration, at now: Date) async throws {
        try await db.raw(
            """
            INSERT INTO schema_migrations (version, name, applied_at) \
            VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now.millisecondsSince1970))
            """
        ).run()
    }
}
