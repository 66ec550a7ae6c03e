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
    /// The lifetime of the session a sign-up starts.
    var defaultSessionMinutes = ProtocolLimits.defaultSessionDurationMinutes

    /// Creates an account.
    func createUser(_ request: CreateUserRequest) async throws -> User {
        try await create(request) { _, user in user }
    }

    /// Creates an account and signs it in with a password session, in one transaction: the
    /// account page's sign-up.
    func createUserAndSignIn(_ request: CreateUserRequest) async throws -> SignInResponse {
        let minutes = defaultSessionMinutes
        return try await create(request) { db, user in
            let issued = try await SessionService.insert(db, userID: user.id, authentication: .init(method: .password), minutes: minutes,
                                                         now: user.createdAt)
            try await AuditLog.record(db, userID: user.id, type: .passwordSignIn, outcome: .success, at: user.createdAt, sessionID: issued.session.id)
            return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
        }
    }

    /// Checks the request, hashes the password, and inserts the account with its audit event;
    /// then, in the same transaction, `then` does the rest.
    private func create<Result: Sendable>(
        _ request: CreateUserRequest, then: @escaping @Sendable (any StatementDatabase, User) async throws -> Result
    ) async throws -> Result {
        guard let username = CredentialRules.username(request.username) else {
            throw CredentialRules.invalidUsername
        }
        guard CredentialRules.isAcceptablePassword(request.password) else {
            throw Rejection(.invalidPassword, "A password is 8 to 256 characters.")
        }
        let user = User(id: SecureRandom.identifier(.user), username: username.display, createdAt: time.now())
        // Hash before taking the database, so the slow part never holds it.
        let passwordHash = try await hasher.hash(CredentialRules.normalisedPassword(request.password))
        let created = try await database.transaction { db -> Result? in
            let insertion = try await UserTable.insert(db, user, usernameKey: username.key, passwordHash: passwordHash,
                                                       isUniqueViolation: database.isUniqueViolation)
            guard insertion == .inserted else { return nil }
            try await AuditLog.record(db, userID: user.id, type: .userCreated, outcome: .success, at: user.createdAt)
            return try await then(db, user)
        }
        guard let created else { throw Rejection(.usernameTaken, "That username is taken.") }
        return created
    }

    /// Changes the caller's password: needs a recent primary authentication and the current
    /// password (a wrong one counts against the lockout), then ends every other session of the
    /// user and lifts a one-time password's restriction from this one.
    func changePassword(_ request: ChangePasswordRequest, for caller: Caller) async throws {
        try stepUp.require(caller)
        guard CredentialRules.isAcceptablePassword(request.newPassword) else {
            throw Rejection(.invalidPassword, "A password is 8 to 256 characters.")
        }
        guard let account = try await database.read({ db in try await UserTable.passwordAccount(db, id: caller.userID) }) else {
            throw Rejection(.invalidSession, "The account no longer exists.")
        }
        let current = CredentialRules.normalisedPassword(request.currentPassword)
        let target = LockoutGuard.Target(usernameKey: account.usernameKey, factor: .password, subject: .username(account.usernameKey),
                                         event: .passwordChanged)
        try await guarded.attempt(target) { try await hasher.verify(current, against: account.passwordHash) ? () : nil }
        let newHash = try await hasher.hash(CredentialRules.normalisedPassword(request.newPassword))
        let now = time.now()
        try await database.transaction { db in
            try await UserTable.setPassword(db, id: caller.userID, hash: newHash, changeRequired: false)
            try await FactorLockout.clear(db, usernameKey: account.usernameKey, factor: .password)
            _ = try await SessionTable.revokeAll(db, userID: caller.userID, sparing: caller.sessionID, now: now)
            try await SessionTable.clearPasswordChangeRequired(db, id: caller.sessionID)
            try await AuditLog.record(db, userID: caller.userID, type: .passwordChanged, outcome: .success, at: now, sessionID: caller.sessionID)
        }
    }
}
