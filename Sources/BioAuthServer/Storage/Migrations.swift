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
    static let migrations: [Migration] = [
        Migration(version: 1, name: "initial schema") { flavor in
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL,
                    username_key TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    pin_hash TEXT,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE registrations (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    algorithm TEXT NOT NULL,
                    public_key \(flavor.bytesType) NOT NULL UNIQUE,
                    label TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX registrations_by_user ON registrations (user_id, status)",
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
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    token_hash \(flavor.bytesType) NOT NULL UNIQUE,
                    method TEXT NOT NULL,
                    registration_id TEXT REFERENCES registrations(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX sessions_by_user ON sessions (user_id, expires_at)",
                "CREATE INDEX sessions_by_registration ON sessions (registration_id)",
                """
                CREATE TABLE factor_failures (
                    username_key TEXT NOT NULL,
                    factor TEXT NOT NULL,
                    failures INTEGER NOT NULL,
                    locked_until BIGINT,
                    PRIMARY KEY (username_key, factor)
                )
                """,
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
            ]
        },
        // Fixed-window counters for limits that every instance on one database must share.
        Migration(version: 2, name: "rate windows") { _ in
            [
                """
                CREATE TABLE rate_windows (
                    key TEXT PRIMARY KEY,
                    window_start BIGINT NOT NULL,
                    hits INTEGER NOT NULL
                )
                """,
            ]
        },
        // When a username's failure run last moved: a run idle for the lockout period is forgotten,
        // so rows of guessed usernames that never locked can be purged to keep the table bounded.
        Migration(version: 3, name: "lockout run age") { _ in
            ["ALTER TABLE factor_failures ADD COLUMN last_attempt_at BIGINT NOT NULL DEFAULT 0"]
        },
        // The purge's lookups, so that it does not scan a million sessions or registrations while
        // holding SQLite's only writer as the tables grow.
        Migration(version: 4, name: "purge indexes") { _ in
            [
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                "CREATE INDEX sessions_by_revocation ON sessions (revoked_at)",
                "CREATE INDEX registrations_by_status ON registrations (status, created_at)",
            ]
        },
        // The account layer: PINs bound to a device key (a registration of kind 'pin' holds the
        // keyed hash; the old unbound PIN hashes are dropped, their users set a PIN again), step-up
        // (when a session last proved a primary factor), one-time passwords, escalating PIN
        // lockouts, counted audit failures and audit retention.
        Migration(version: 5, name: "account layer") { _ in
            [
                "ALTER TABLE registrations ADD COLUMN kind TEXT NOT NULL DEFAULT 'biometric'",
                "ALTER TABLE registrations ADD COLUMN pin_hash TEXT",
                "ALTER TABLE users DROP COLUMN pin_hash",
                "ALTER TABLE users ADD COLUMN password_change_required INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE sessions ADD COLUMN authenticated_at BIGINT NOT NULL DEFAULT 0",
                "UPDATE sessions SET authenticated_at = created_at",
                "ALTER TABLE sessions ADD COLUMN password_change_required INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE factor_failures ADD COLUMN lockouts INTEGER NOT NULL DEFAULT 0",
                "DELETE FROM factor_failures WHERE factor = 'pin'",
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
                "CREATE INDEX audit_events_by_age ON audit_events (created_at)",
            ]
        },
        // Passkeys (WebAuthn credentials) beside device keys, the WebAuthn ceremonies' single-use
        // challenges (not bound to a registration: a discoverable sign-in names no user), and
        // sessions that say which passkey signed them in.
        Migration(version: 6, name: "passkeys") { flavor in
            [
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
                    challenge \(flavor.bytesType) NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at)",
                "ALTER TABLE sessions ADD COLUMN passkey_id TEXT REFERENCES passkeys(id)",
                "CREATE INDEX sessions_by_passkey ON sessions (passkey_id)",
            ]
        },
        // Fewer b-trees written per session: the sessions a passkey signed in are found through
        // their owner's sessions (`sessions_by_user`; passkeys are never deleted, so no foreign-key
        // check needs the index), and only revoked sessions are indexed by revocation time (the
        // purge's only use of it). `sessions_by_registration` stays: deleting a pending
        // registration checks the foreign key through it.
        Migration(version: 7, name: "fewer session indexes") { _ in
            [
                "DROP INDEX sessions_by_passkey",
                "DROP INDEX sessions_by_revocation",
                "CREATE INDEX sessions_by_revocation ON sessions (revoked_at) WHERE revoked_at IS NOT NULL",
            ]
        },
        // Authentication challenges are no longer stored (AuthenticationChallenge): only the ids
        // of answered ones, until they expire. Stored ones still outstanding become unknown; their
        // devices ask for new ones.
        Migration(version: 8, name: "stateless authentication challenges") { flavor in
            [
                "CREATE TABLE spent_challenges (id TEXT PRIMARY KEY)\(flavor == .sqlite ? " WITHOUT ROWID" : "")",
                "DELETE FROM challenges WHERE ceremony = 2", // 2: authentication (registration challenges stay stored)
            ]
        },
        // Session tokens carry their session's id (SessionToken), so a session is found by its
        // primary key and the unique index of token digests (random keys: a page of its own per
        // sign-in) goes. Sessions issued before keep working: they are marked `legacy_token` and
        // found by digest through a partial index that holds only them, empty once they expire.
        // The mark is the column's default, and this build writes 0 explicitly, so a session an
        // instance of the previous build inserts during a rolling upgrade is marked too.
        Migration(version: 9, name: "tokens name their session") { flavor in
            switch flavor {
            case .postgres:
                [
                    // 1 for every existing row, without rewriting the table.
                    "ALTER TABLE sessions ADD COLUMN legacy_token INTEGER NOT NULL DEFAULT 1",
                    "ALTER TABLE sessions DROP CONSTRAINT sessions_token_hash_key",
                    "CREATE UNIQUE INDEX sessions_by_legacy_token ON sessions (token_hash) WHERE legacy_token = 1",
                ]
            case .sqlite:
                // SQLite cannot drop a UNIQUE column constraint: the table is rebuilt (no table
                // refers to `sessions`, so dropping the old one checks no foreign key).
                [
                    """
                    CREATE TABLE sessions_rebuilt (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users(id),
                        token_hash BLOB NOT NULL,
                        method TEXT NOT NULL,
                        registration_id TEXT REFERENCES registrations(id),
                        created_at BIGINT NOT NULL,
                        expires_at BIGINT NOT NULL,
                        revoked_at BIGINT,
                        authenticated_at BIGINT NOT NULL DEFAULT 0,
                        password_change_required INTEGER NOT NULL DEFAULT 0,
                        passkey_id TEXT REFERENCES passkeys(id),
                        legacy_token INTEGER NOT NULL DEFAULT 1
                    )
                    """,
                    """
                    INSERT INTO sessions_rebuilt (id, user_id, token_hash, method, registration_id, created_at, expires_at, revoked_at,
                                                  authenticated_at, password_change_required, passkey_id, legacy_token)
                    SELECT id, user_id, token_hash, method, registration_id, created_at, expires_at, revoked_at,
                           authenticated_at, password_change_required, passkey_id, 1 FROM sessions
                    """,
                    "DROP TABLE sessions",
                    "ALTER TABLE sessions_rebuilt RENAME TO sessions",
                    "CREATE INDEX sessions_by_user ON sessions (user_id, expires_at)",
                    "CREATE INDEX sessions_by_registration ON sessions (registration_id)",
                    "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                    "CREATE INDEX sessions_by_revocation ON sessions (revoked_at) WHERE revoked_at IS NOT NULL",
                    "CREATE UNIQUE INDEX sessions_by_legacy_token ON sessions (token_hash) WHERE legacy_token = 1",
                ]
            }
        },
        // The one account core: a credential epoch each credential change moves on (a proof that
        // saw an older one yields no session), one-time passwords that expire (and are spent by
        // their sign-in), sessions that record the factors that made them and when one last
        // allowed a credential change, the idle timeout's last use, and username-first passkey
        // ceremonies for usernames without an account. Sessions from before keep `factors` empty
        // and no `step_up_at`: readers take their method, and their last authentication unless it
        // was a PIN's. One-time passwords already set expire a day after the upgrade.
        Migration(version: 10, name: "one account core") { flavor in
            let now = flavor == .sqlite ? DatabaseClock.sqliteNow : DatabaseClock.postgresNow
            return [
                "ALTER TABLE users ADD COLUMN credential_epoch BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE users ADD COLUMN password_expires_at BIGINT",
                "UPDATE users SET password_expires_at = \(now) + 86400000 WHERE password_change_required <> 0",
                "ALTER TABLE sessions ADD COLUMN factors TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE sessions ADD COLUMN step_up_at BIGINT",
                "ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT",
                "ALTER TABLE webauthn_challenges ADD COLUMN username_first INTEGER NOT NULL DEFAULT 0",
                "UPDATE webauthn_challenges SET username_first = 1 WHERE ceremony = 2 AND user_id IS NOT NULL AND session_id IS NULL",
            ]
        },
        // Look-alike usernames: each account's skeleton (UsernameSkeleton), unique. Accounts that
        // already look alike keep working; the later of them gets no skeleton.
        Migration(version: 11, name: "username skeletons", statements: { _ in
            ["ALTER TABLE users ADD COLUMN username_skeleton TEXT"]
        }, code: { db, _ in
            var taken = Set<String>()
            for row in try await db.raw("SELECT id, username FROM users ORDER BY created_at, id").all() {
                guard let username = CredentialRules.username(try row.decode(column: "username", as: String.self)),
                      taken.insert(username.skeleton).inserted else { continue }
                try await db.raw("UPDATE users SET username_skeleton = \(bind: username.skeleton) WHERE id = \(bind: try row.decode(column: "id", as: String.self))").run()
            }
            try await db.raw("CREATE UNIQUE INDEX users_by_skeleton ON users (username_skeleton)").run()
        }),
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
