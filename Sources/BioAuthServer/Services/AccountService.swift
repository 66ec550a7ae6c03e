import BioAuthProtocol
import Foundation
import SQLKit

/// Accounts: sign-up and the password change.
struct AccountService: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let guarded: LockoutGuard
    let stepUp: StepUp
    let time: TimeSource

    /// Creates an account.
    func createUser(_ request: CreateUserRequest) async throws -> User {
        guard let username = CredentialRules.username(request.username) else {
            throw APIError(.invalidUsername, "A username is 3 to 64 characters, with no control characters and no spaces at either end.")
        }
        guard CredentialRules.isAcceptablePassword(request.password) else {
            throw APIError(.invalidPassword, "A password is 8 to 256 characters.")
        }
        let user = User(id: SecureRandom.identifier(.user), username: username.display, createdAt: time.now())
        // Hash before taking the database, so the slow part never holds it.
        let passwordHash = try await hasher.hash(CredentialRules.normalisedPassword(request.password))
        let created = try await database.transaction { db -> Bool in
            let taken = try await db.raw("SELECT 1 AS taken FROM users WHERE username_key = \(bind: username.key)").first() != nil
            guard !taken else { return false }
            do {
                try await db.raw("""
                    INSERT INTO users (id, username, username_key, password_hash, created_at)
                    VALUES (\(bind: user.id), \(bind: username.display), \(bind: username.key), \(bind: passwordHash),
                            \(bind: user.createdAt.millisecondsSince1970))
                    """).run()
            } catch where database.isUniqueViolation(error) {
                // A concurrent sign-up on another instance won the race past the check above.
                return false
            }
            try await AuditLog.record(db, userID: user.id, type: .userCreated, outcome: .success, at: user.createdAt)
            return true
        }
        guard created else { throw APIError(.usernameTaken, "That username is taken.") }
        return user
    }

    /// Changes the caller's password: needs a recent primary authentication and the current
    /// password (a wrong one counts against the lockout), then ends every other session of the
    /// user and lifts a one-time password's restriction from this one.
    func changePassword(_ request: ChangePasswordRequest, for caller: Caller) async throws {
        try stepUp.require(caller)
        guard CredentialRules.isAcceptablePassword(request.newPassword) else {
            throw APIError(.invalidPassword, "A password is 8 to 256 characters.")
        }
        guard let account = try await PasswordAccount.find(database, userID: caller.userID) else {
            throw APIError(.invalidSession, "The account no longer exists.")
        }
        let current = CredentialRules.normalisedPassword(request.currentPassword)
        let target = LockoutGuard.Target(usernameKey: account.usernameKey, factor: .password, subject: .username(account.usernameKey),
                                         event: .passwordChanged)
        try await guarded.attempt(target) { try await hasher.verify(current, against: account.passwordHash) ? () : nil }
        let newHash = try await hasher.hash(CredentialRules.normalisedPassword(request.newPassword))
        let now = time.now()
        try await database.transaction { db in
            try await db.raw("""
                UPDATE users SET password_hash = \(bind: newHash), password_change_required = 0 WHERE id = \(bind: caller.userID)
                """).run()
            try await FactorLockout.clear(db, usernameKey: account.usernameKey, factor: .password)
            _ = try await SessionService.revokeAll(db, userID: caller.userID, sparing: caller.sessionID, now: now)
            try await db.raw("UPDATE sessions SET password_change_required = 0 WHERE id = \(bind: caller.sessionID)").run()
            try await AuditLog.record(db, userID: caller.userID, type: .passwordChanged, outcome: .success, at: now, sessionID: caller.sessionID)
        }
    }

    /// A user by id.
    static func user(_ db: any SQLDatabase, id: String) async throws -> User? {
        try await db.raw("SELECT id, username, created_at FROM users WHERE id = \(bind: id)").first().map(user(from:))
    }

    /// A user value from a row with `id`, `username` and `created_at`.
    static func user(from row: any SQLRow) throws -> User {
        User(id: try row.decode(column: "id", as: String.self),
             username: try row.decode(column: "username", as: String.self),
             createdAt: try row.decodeDate(column: "created_at"))
    }
}
