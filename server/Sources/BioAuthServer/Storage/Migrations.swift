import Foundation
import Logging
import SQLKit

/// One versioned step of the schema.
struct Migration: Sendable {
    /// Strictly increasing version number; recorded in `schema_migrations` once applied.
    var version: Int
    var name: String
    /// The statements, for the given dialect.
    var statements: @Sendable (SQLFlavor) -> [String]
    /// What SQL alone cannot do, run after the statements in the same transaction.
    var code: (@Sendable (any StatementDatabase, SQLFlavor) async throws -> Void)?

    init(
        version: Int,
        name: String,
        statements: @escaping @Sendable (SQLFlavor) -> [String],
        code: (@Sendable (any StatementDatabase, SQLFlavor) async throws -> Void)? = nil
    ) {
        self.version = version
        self.name = name
        self.statements = statements
        self.code = code
    }
}

/// Creates and upgrades the schema on start: every migration newer than the recorded version runs
/// in its own transaction, together with the row that records it.
enum Migrator {
    /// The schema's versions (``Schema/migrations``).
    static var migrations: [Migration] { Schema.migrations }

    /// The newest schema version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// A database written by a newer build; refusing it beats corrupting it.
    struct NewerSchemaError: Error, CustomStringConvertible {
        var found: Int
        var known: Int
        var description: String { "the database has schema version \(found), newer than this build's \(known)" }
    }

    /// Brings the schema up to ``latestVersion`` (tests may stop at an older `version`, to make
    /// a database as an older build left it).
    static func migrate(_ database: any DatabaseProvider, now: Date, logger: Logger, through version: Int = latestVersion) async throws {
        try await database.transaction { db in
            try await SchemaVersionTable.lock(db, database.flavor)
            try await SchemaVersionTable.create(db)
        }
        for migration in migrations where migration.version <= version {
            let applied = try await database.transaction { db -> Bool in
                try await SchemaVersionTable.lock(db, database.flavor)
                let current = try await SchemaVersionTable.current(db)
                if current > latestVersion { throw NewerSchemaError(found: current, known: latestVersion) }
                guard current < migration.version else { return false }
                for statement in migration.statements(database.flavor) {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                try await migration.code?(db, database.flavor)
                try await SchemaVersionTable.record(db, migration, at: now)
                return true
            }
            if applied {
                logger.info("applied schema migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
        }
    }
}
