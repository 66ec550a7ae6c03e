/// The schema, as the versions that build it (run by ``Migrator``). Version 1 is the whole schema
/// as first released; a later change is a new migration after it, never an edit of one released.
enum Schema {
    /// Every version, oldest first.
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
        Migration(version: 2, name: "key attestation") { flavor in
            [
                // What the server found of a device key's hardware evidence (KeyAttestationResult),
                // and the evidence itself as the client sent it (JSON), to check again later (a
                // batch key revoked after the key registered): all null when it was registered
                // without looking.
                "ALTER TABLE registrations ADD COLUMN attestation_format TEXT",
                "ALTER TABLE registrations ADD COLUMN attestation_verdict TEXT",
                "ALTER TABLE registrations ADD COLUMN attestation_reason TEXT",
                "ALTER TABLE registrations ADD COLUMN attestation_security_level TEXT",
                "ALTER TABLE registrations ADD COLUMN attestation_app TEXT",
                "ALTER TABLE registrations ADD COLUMN attestation_evidence \(flavor.bytesType)",
                // Challenges a device key is made with (Android's attestation challenge, App
                // Attest's client data), bound to the session that asked; consumed by deletion.
                """
                CREATE TABLE attestation_challenges (
                    challenge \(flavor.bytesType) PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    session_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX attestation_challenges_by_user ON attestation_challenges (user_id, expires_at)",
                "CREATE INDEX attestation_challenges_by_expiry ON attestation_challenges (expires_at)",
                // App Attest keys the server verified, one per app install, and the last counter
                // their assertions showed.
                """
                CREATE TABLE app_attest_keys (
                    key_id \(flavor.bytesType) PRIMARY KEY,
                    public_key \(flavor.bytesType) NOT NULL,
                    app_id TEXT NOT NULL,
                    counter BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
            ]
        },
        Migration(version: 3, name: "access-token signing keys") { flavor in
            [
                // The keys access tokens are signed with, shared by every instance: the public half
                // in the clear, the private half sealed with a key of the operator's file
                // (SigningKeyWrap, named by `wrap_key_id`). `generation` orders them and is unique,
                // so of instances rotating at once exactly one adds the next key; a key is in the
                // key set from `created_at`, signs from `activates_at` until the next key activates
                // or it is retired.
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    generation BIGINT NOT NULL UNIQUE,
                    algorithm TEXT NOT NULL,
                    public_key \(flavor.bytesType) NOT NULL,
                    private_key \(flavor.bytesType) NOT NULL,
                    wrap_key_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    activates_at BIGINT NOT NULL,
                    retired_at BIGINT
                )
                """
            ]
        },
        Migration(version: 4, name: "confirmations") { flavor in
            [
                // The bank's backends (ServiceCredentialToken): only the SHA-256 of a credential is
                // stored; `webhook_url` is where its confirmations' outcomes are posted, if anywhere.
                """
                CREATE TABLE service_credentials (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    secret_hash \(flavor.bytesType) NOT NULL,
                    webhook_url TEXT,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                // What a backend asked an account to approve: `details` is the canonical form that
                // is hashed and signed (ConfirmationDetails.canonicalJSON), `details_hash` its
                // SHA-256; `failures` counts approvals in a row that did not hold (five block it).
                // `status` is pending, approved, declined or blocked; expired is read from `expires_at`.
                """
                CREATE TABLE confirmations (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    service_credential_id TEXT NOT NULL REFERENCES service_credentials(id),
                    kind TEXT NOT NULL,
                    details TEXT NOT NULL,
                    details_hash \(flavor.bytesType) NOT NULL,
                    status TEXT NOT NULL,
                    failures INTEGER NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    decided_at BIGINT,
                    factor TEXT,
                    registration_id TEXT,
                    passkey_id TEXT,
                    receipt TEXT
                )
                """,
                "CREATE INDEX confirmations_by_user ON confirmations (user_id, created_at)",
                "CREATE INDEX confirmations_by_service ON confirmations (service_credential_id)",
            ]
        },
    ]
}
