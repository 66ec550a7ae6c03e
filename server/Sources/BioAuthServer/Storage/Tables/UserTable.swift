import BioAuthProtocol
import Foundation
import SQLKit

/// The `users` table: every statement that reads or writes it, inside the caller's transaction
/// or connection.
enum UserTable {
    /// The outcome of inserting an account.
    enum Insertion: Sendable { case inserted, usernameTaken }

    /// Inserts an account unless its username key, or its look-alike skeleton, is taken (also by a
    /// concurrent insert on another instance, which the unique indexes catch).
    static func insert(
        _ db: any StatementDatabase,
        _ user: User,
        username: CredentialRules.Username,
        passwordHash: String,
        isUniqueViolation: (any Error) -> Bool
    ) async throws -> Insertion {
        let skeleton = username.skeleton
        let taken =
            try await db.raw(
                """
                SELECT 1 AS taken FROM users WHERE username_key = \(bind: username.key) OR username_skeleton = \(bind: skeleton)
                """
            ).first() != nil
        guard !taken else { return .usernameTaken }
        do {
            try await db.raw(
                """
                INSERT INTO users (id, username, username_key, username_skeleton, password_hash, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: username.key), \(bind: skeleton), \(bind: passwordHash),
                        \(bind: user.createdAt.millisecondsSince1970))
                """
            ).run()
            return .inserted
        } catch  where isUniqueViolation(error) {
            return .usernameTaken
        }
    }

    /// A user by id.
    static func user(_ db: any StatementDatabase, id: String) async throws -> User? {
        guard let row = try await db.first("SELECT username, created_at FROM users WHERE id = $1", .text(id)) else { return nil }
        return User(id: id, username: try row.text(0), createdAt: try row.date(1))
    }

    /// The id of the user with this username key.
    static func id(_ db: any StatementDatabase, usernameKey: String) async throws -> String? {
        try await db.raw("SELECT id FROM users WHERE username_key = \(bind: usernameKey)").first()?.decode(column: "id", as: String.self)
    }

    /// The username key of a user.
    static func usernameKey(_ db: any StatementDatabase, id: String) async throws -> String? {
        try await db.raw("SELECT username_key FROM users WHERE id = \(bind: id)").first()?.decode(column: "username_key", as: String.self)
    }

    private static let passwordColumns =
        "id, username, username_key, created_at, password_hash, password_change_required, password_expires_at, credential_epoch"

    /// The account with this username key, with what a password check needs.
    static func passwordAccount(_ db: any StatementDatabase, usernameKey: String) async throws -> PasswordAccount? {
        try await db.raw("SELECT \(unsafeRaw: passwordColumns) FROM users WHERE username_key = \(bind: usernameKey)").first().map(
            PasswordAccount.init(row:)
        )
    }

    /// The account with this id, with what a password check needs.
    static func passwordAccount(_ db: any StatementDatabase, id: String) async throws -> PasswordAccount? {
        try await db.raw("SELECT \(unsafeRaw: passwordColumns) FROM users WHERE id = \(bind: id)").first().map(PasswordAccount.init(row:))
    }

    /// Replaces a user's password hash: a password the user chose, or (with `expiresAt`) a
    /// one-time password an operator set, which must be changed after its one sign-in. Only a
    /// credential change makes it (``AccountCore/change(_:apply:)``), which moves the epoch on.
    static func setPassword(_ db: any StatementDatabase, id: String, hash: String, oneTimeUntil expiresAt: Date? = nil) async throws {
        try await db.raw(
            """
            UPDATE users SET password_hash = \(bind: hash), password_change_required = \(bind: expiresAt == nil ? 0 : 1),
                             password_expires_at = \(bind: expiresAt?.millisecondsSince1970)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// Locks the user's row (`FOR UPDATE`) until the transaction ends, so that concurrent writers
    /// that count the user's rows or change their credentials (PostgreSQL, READ COMMITTED, several
    /// instances) queue, as SQLite's writers do, and so that a sign-in's completion, which reads the
    /// row `FOR KEY SHARE`, waits for a credential change to end.
    static func lock(_ db: any StatementDatabase, id: String) async throws {
        guard db.dialect.name == "postgresql" else { return }  // SQLite's single writer already queues them
        try await db.raw("SELECT id FROM users WHERE id = \(bind: id) FOR UPDATE").run()
    }

    /// Moves the user's credential epoch on by one, inside a credential change's transaction, which
    /// locked the row first (``AccountCore/change(_:apply:)``): every verification begun before (a
    /// password checked, a challenge issued, a passkey read) then yields no session
    /// (``AccountStateSQL``).
    static func advanceEpoch(_ db: any StatementDatabase, id: String) async throws {
        try await db.raw("UPDATE users SET credential_epoch = credential_epoch + 1 WHERE id = \(bind: id)").run()
    }

    /// The account as a proof's completion judges it: the user, the username key, whether a
    /// password change is pending, and its state (``AccountStateSQL``) for a proof of `factor` that
    /// saw `epoch`.
    static func account(_ db: any StatementDatabase, id: String, epoch: Int64, factor: AuthenticationMethod, now: Date) async throws -> AccountRow? {
        let bound: [String: SQLValue] = ["epoch": .integer(epoch), "factor": .text(factor.rawValue), "now": .time(now), "user_id": .text(id)]
        guard let row = try await db.rows(AccountState.self, AccountState.statement.values(bound)).first else { return nil }
        return try AccountRow(row, at: 0)
    }

    /// Reads the account `:user_id` with its state (``AccountStateSQL``) for a proof of `:factor`
    /// that saw epoch `:epoch`, at `:now`, when `gate` holds, with `lock` (a locking clause, or
    /// nothing): the columns ``AccountRow`` reads. The sign-in's completion runs it on both databases.
    static func readingAccount(when gate: String, lock: String = "") -> String {
        """
        SELECT id, username, created_at, username_key, password_change_required,
               \(AccountStateSQL.state(epoch: ":epoch", factor: ":factor", now: ":now")) AS state
        FROM users WHERE id = :user_id AND \(gate) \(lock)
        """
    }

    /// ``account(_:id:epoch:factor:now:)``'s query, run for every sign-in on SQLite (PostgreSQL
    /// reads the same inside the completion's statement).
    enum AccountState: PreparedStatementText {
        static let statement = NamedSQL(readingAccount(when: "true"))
        static let name = "bioauth_user_account_state"
        static var sql: String { statement.text }
        static let parameters = statement.types(["user_id": .text, "epoch": .integer, "factor": .text, "now": .integer])
    }

    /// The account's credential epoch (for a verification about to begin).
    static func epoch(_ db: any StatementDatabase, id: String) async throws -> Int64? {
        try await db.first("SELECT credential_epoch FROM users WHERE id = $1", .text(id)).map { try $0.integer(0) }
    }

    /// Spends a one-time password: it signed in once, and signs in no more. `false` when it was
    /// spent (or expired) already: a racing sign-in with it won.
    static func spendOneTimePassword(_ db: any StatementDatabase, id: String, now: Date) async throws -> Bool {
        try await !db.rows(spendOneTimePassword, ["user_id": .text(id), "now": .time(now)]).isEmpty
    }

    /// Spends `:user_id`'s one-time password at `:now` if it is still unspent, when `gate` holds; a
    /// row comes back only then. Of two racing spends, the second finds it spent (on PostgreSQL its
    /// `UPDATE` waits for the first and checks the row again). The sign-in's completion runs it on
    /// both databases.
    static func spendingOneTimePassword(when gate: String) -> String {
        """
        UPDATE users SET password_expires_at = :now
        WHERE id = :user_id AND password_change_required <> 0 AND password_expires_at > :now AND \(gate) RETURNING id
        """
    }

    private static let spendOneTimePassword = NamedSQL(spendingOneTimePassword(when: "true"))

    /// A user value from a row with `id`, `username` and `created_at`.
    static func user(from row: any SQLRow) throws -> User {
        User(
            id: try row.decode(column: "id", as: String.self),
            username: try row.decode(column: "username", as: String.self),
            createdAt: try row.decodeDate(column: "created_at")
        )
    }
}

/// An account with what a password check needs.
struct PasswordAccount: Sendable {
    var user: User
    var usernameKey: String
    var passwordHash: String
    var passwordChangeRequired: Bool
    /// When a one-time password stops signing in (it is spent by its sign-in too).
    var passwordExpiresAt: Date?
    /// The credential epoch as read, before the password is checked.
    var epoch: Int64

    fileprivate init(row: any SQLRow) throws {
        user = try UserTable.user(from: row)
        usernameKey = try row.decode(column: "username_key", as: String.self)
        passwordHash = try row.decode(column: "password_hash", as: String.self)
        passwordChangeRequired = try row.decode(column: "password_change_required", as: Int.self) != 0
        passwordExpiresAt = try row.decodeOptionalDate(column: "password_expires_at")
        epoch = try row.decode(column: "credential_epoch", as: Int64.self)
    }

    /// Whether the password may still sign in at `now` (a one-time password expires).
    func passwordIsValid(at now: Date) -> Bool {
        passwordExpiresAt.map { $0 > now } ?? true
    }
}

/// An account as a proof's completion judges it.
struct AccountRow: Sendable {
    var user: User
    var usernameKey: String
    var passwordChangeRequired: Bool
    /// ``AccountStateSQL``'s verdict.
    var state: String

    /// The account from the columns ``UserTable/readingAccount(when:lock:)`` reads, from column `first` on.
    init(_ row: StatementRow, at first: Int) throws {
        user = User(id: try row.text(first), username: try row.text(first + 1), createdAt: try row.date(first + 2))
        usernameKey = try row.text(first + 3)
        passwordChangeRequired = try row.integer(first + 4) != 0
        state = try row.text(first + 5)
    }
}
