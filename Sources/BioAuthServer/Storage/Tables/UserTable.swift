import BioAuthProtocol
import Foundation
import SQLKit

/// The `users` table: every statement that reads or writes it, inside the caller's transaction
/// or connection.
enum UserTable {
    /// The outcome of inserting an account.
    enum Insertion: Sendable { case inserted, usernameTaken }

    /// Inserts an account unless its username key is taken (also by a concurrent insert on
    /// another instance, which the unique index catches).
    static func insert(
        _ db: any StatementDatabase, _ user: User, usernameKey: String, passwordHash: String, isUniqueViolation: (any Error) -> Bool
    ) async throws -> Insertion {
        let taken = try await db.raw("SELECT 1 AS taken FROM users WHERE username_key = \(bind: usernameKey)").first() != nil
        guard !taken else { return .usernameTaken }
        do {
            try await db.raw("""
                INSERT INTO users (id, username, username_key, password_hash, created_at)
                VALUES (\(bind: user.id), \(bind: user.username), \(bind: usernameKey), \(bind: passwordHash),
                        \(bind: user.createdAt.millisecondsSince1970))
                """).run()
            return .inserted
        } catch where isUniqueViolation(error) {
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

    /// The account with this username key, with what a password check needs.
    static func passwordAccount(_ db: any StatementDatabase, usernameKey: String) async throws -> PasswordAccount? {
        try await db.raw("""
            SELECT id, username, username_key, created_at, password_hash, password_change_required FROM users
            WHERE username_key = \(bind: usernameKey)
            """).first().map(PasswordAccount.init(row:))
    }

    /// The account with this id, with what a password check needs.
    static func passwordAccount(_ db: any StatementDatabase, id: String) async throws -> PasswordAccount? {
        try await db.raw("""
            SELECT id, username, username_key, created_at, password_hash, password_change_required FROM users WHERE id = \(bind: id)
            """).first().map(PasswordAccount.init(row:))
    }

    /// Replaces a user's password hash; `changeRequired` marks a one-time password.
    static func setPassword(_ db: any StatementDatabase, id: String, hash: String, changeRequired: Bool) async throws {
        try await db.raw("""
            UPDATE users SET password_hash = \(bind: hash), password_change_required = \(bind: changeRequired ? 1 : 0) WHERE id = \(bind: id)
            """).run()
    }

    /// Locks the user's row until the transaction ends, so that concurrent writers that count the
    /// user's rows (PostgreSQL, READ COMMITTED, several instances) queue, as SQLite's writers do.
    static func lock(_ db: any StatementDatabase, id: String) async throws {
        try await db.raw("UPDATE users SET id = id WHERE id = \(bind: id)").run()
    }

    /// A user value from a row with `id`, `username` and `created_at`.
    static func user(from row: any SQLRow) throws -> User {
        User(id: try row.decode(column: "id", as: String.self),
             username: try row.decode(column: "username", as: String.self),
             createdAt: try row.decodeDate(column: "created_at"))
    }
}

/// An account with what a password check needs.
struct PasswordAccount: Sendable {
    var user: User
    var usernameKey: String
    var passwordHash: String
    var passwordChangeRequired: Bool

    fileprivate init(row: any SQLRow) throws {
        user = try UserTable.user(from: row)
        usernameKey = try row.decode(column: "username_key", as: String.self)
        passwordHash = try row.decode(column: "password_hash", as: String.self)
        passwordChangeRequired = try row.decode(column: "password_change_required", as: Int.self) != 0
    }
}
