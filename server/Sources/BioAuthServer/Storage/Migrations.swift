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

    init(version: Int, name: String, statements: @escaping @Sendable (SQLFlavor) -> [String],
         code: (@Sendable (any StatementDatabase, SQLFlavor) async throws -> Void)? = nil) {
        self.version = version
        self.name = name
        self.statements = statements
        self.code = code
    }
}

/// Creates and upgrades the schema on start: every migration newer than the recorded version runs
/// in its own transaction, together with the row that records it.
enum Migrator {
    /// The schema's versions. Version 1 is the whole schema as first released; a later change
    /// is a new migration after it, never an edit of one already released.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "schema") { flavor in
            [
                // Accounts. `username_key` is the username's comparison form, `username_skeleton`
                // its look-alike form (UsernameSkeleton); each is unique. A credential change moves
                // `credential_epoch` on, so a proof that saw an older one yields no session.
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL,
                    username_key TEXT NOT NULL UNIQUE,
                    username_skeleton TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    password_change_required INTEGER NOT NULL DEFAULT 0,
                    password_expires_at BIGINT,
                    credential_epoch BIGINT NOT NULL DEFAULT 0
                )
                """,
                // Device keys: biometric keys, and PIN keys that hold the PIN's keyed hash.
                """
                CREATE TABLE registrations (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    kind TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    public_key \(flavor.bytesType) NOT NULL UNIQUE,
                    pin_hash TEXT,
                    label TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX registrations_by_user ON registrations (user_id, status)",
                "CREATE INDEX registrations_by_status ON registrations (status, created_at)",
                // Registration challenges (authentication challenges are not stored:
                // AuthenticationChallenge; only the ids of answered ones, until they expire).
                """
                CREATE TABLE challenges (
                    id TEXT PRIMARY KEY,
                    registration_id TEXT NOT NULL REFERENCES registrations(id),
                    ceremony INTEGER NOT NULL,
                    challenge \(flavor.bytesType) NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX challenges_by_registration ON challenges (registration_id, ceremony)",
                "CREATE INDEX challenges_by_expiry ON challenges (expires_at)",
                "CREATE TABLE spent_challenges (id TEXT PRIMARY KEY)\(flavor == .sqlite ? " WITHOUT ROWID" : "")",
                // Passkeys (WebAuthn credentials) and the WebAuthn ceremonies' single-use challenges
                // (not bound to a registration: a discoverable sign-in names no user).
                """
                CREATE TABLE passkeys (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    credential_id \(flavor.bytesType) NOT NULL UNIQUE,
                    public_key \(flavor.bytesType) NOT NULL,
                    algorithm INTEGER NOT NULL,
                    sign_count BIGINT NOT NULL,
                    aaguid TEXT NOT NULL,
                    backup_eligible INTEGER NOT NULL,
                    backed_up INTEGER NOT NULL,
                    transports TEXT NOT NULL,
                    attestation_format TEXT NOT NULL,
                    label TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX passkeys_by_user ON passkeys (user_id, status)",
                """
                CREATE TABLE webauthn_challenges (
                    id TEXT PRIMARY KEY,
                    ceremony INTEGER NOT NULL,
                    user_id TEXT REFERENCES users(id),
                    session_id TEXT,
                    username_first INTEGER NOT NULL DEFAULT 0,
                    challenge \(flavor.bytesType) NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at)",
                // Sessions, found by the id their token carries (SessionToken); only the token's
                // SHA-256 is stored. `factors` lists the factors that made the session, `step_up_at`
                // is when one last allowed a credential change, `last_seen_at` its last use (for the
                // idle timeout). Sessions are found through their owner's (`sessions_by_user`; passkeys
                // are never deleted, so no foreign-key check needs an index by passkey), and only
                // revoked ones by revocation time (the purge's only use of it).
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    token_hash \(flavor.bytesType) NOT NULL,
                    method TEXT NOT NULL,
                    factors TEXT NOT NULL,
                    registration_id TEXT REFERENCES registrations(id),
                    passkey_id TEXT REFERENCES passkeys(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    authenticated_at BIGINT NOT NULL,
                    step_up_at BIGINT,
                    last_seen_at BIGINT,
                    password_change_required INTEGER NOT NULL DEFAULT 0,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX sessions_by_user ON sessions (user_id, expires_at)",
                "CREATE INDEX sessions_by_registration ON sessions (registration_id)",
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                "CREATE INDEX sessions_by_revocation ON sessions (revoked_at) WHERE revoked_at IS NOT NULL",
                // Failure runs per username and factor, and their lockouts.
                """
                CREATE TABLE factor_failures (
                    username_key TEXT NOT NULL,
                    factor TEXT NOT NULL,
                    failures INTEGER NOT NULL,
                    lockouts INTEGER NOT NULL DEFAULT 0,
                    locked_until BIGINT,
                    last_attempt_at BIGINT NOT NULL,
                    PRIMARY KEY (username_key, factor)
                )
                """,
                // The account's activity, and repeated failures counted per window.
                """
                CREATE TABLE audit_events (
                    seq \(flavor.sequencePrimaryKey),
                    id TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    type TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    registration_id TEXT,
                    session_id TEXT
                )
                """,
                "CREATE INDEX audit_events_by_user ON audit_events (user_id, seq)",
                "CREATE INDEX audit_events_by_age ON audit_events (created_at)",
                """
                CREATE TABLE audit_tallies (
                    id TEXT NOT NULL UNIQUE,
                    subject TEXT NOT NULL,
                    type TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    registration_id TEXT NOT NULL,
                    window_start BIGINT NOT NULL,
                    count INTEGER NOT NULL,
                    last_at BIGINT NOT NULL,
                    PRIMARY KEY (subject, type, outcome, registration_id, window_start)
                )
                """,
                "CREATE INDEX audit_tallies_by_age ON audit_tallies (last_at)",
            ]
        },
    ]

    /// The newest schema version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// A database written by a newer build; refusing it beats corrupting it.
    struct NewerSchemaError: Error, CustomStringConvertible {
        var found: Int
        var known: Int
        var description: String { "the database has schema version \(found), newer than this build's \(known)" }
    }

    /// Serialises migrations of instances starting together on one PostgreSQL (until the end of the
    /// transaction); SQLite's `BEGIN IMMEDIATE` already does.
    private static func lockSchema(_ db: any StatementDatabase, _ flavor: SQLFlavor) async throws {
        if flavor == .postgres {
            try await db.raw("SELECT pg_advisory_xact_lock(7406150601) AS locked").run()
        }
    }

    /// Brings the schema up to ``latestVersion`` (tests may stop at an older `version`, to make
    /// a database as an older build left it).
    static func migrate(_ database: any DatabaseProvider, now: Date, logger: Logger, through version: Int = latestVersion) async throws {
        try await database.transaction { db in
            try await lockSchema(db, database.flavor)
            try await db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)").run()
        }
        for migration in migrations where migration.version <= version {
            let applied = try await database.transaction { db -> Bool in
                try await lockSchema(db, database.flavor)
                let current = try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?
                    .decode(column: "version", as: Int?.self) ?? 0
                if current > latestVersion { throw NewerSchemaError(found: current, known: latestVersion) }
                guard current < migration.version else { return false }
                for statement in migration.statements(database.flavor) {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                try await migration.code?(db, database.flavor)
                try await db.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now.millisecondsSince1970))").run()
                return true
            }
            if applied {
                logger.info("applied schema migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
        }
    }
}
