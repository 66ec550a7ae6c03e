import BioAuthProtocol
import Foundation

extension AccountCore {
    /// Creates an account (see ``insertAccount(_:username:passwordHash:now:)``); `nil` when its
    /// username, or a look-alike, is taken.
    func createAccount(username: CredentialRules.Username, passwordHash: String) async throws -> User? {
        let now = time.now()
        return try await database.transaction { db in try await insertAccount(db, username: username, passwordHash: passwordHash, now: now) }
    }

    /// Creates an account and its first session in one transaction: a password session of the
    /// default lifetime (``SessionPolicy``), stepped up. `nil` when the username is taken.
    func createAccountAndSignIn(username: CredentialRules.Username, passwordHash: String) async throws -> SignInResponse? {
        let now = time.now()
        let minutes = try sessions.minutes(requested: nil)
        return try await database.transaction { db -> SignInResponse? in
            guard let user = try await insertAccount(db, username: username, passwordHash: passwordHash, now: now) else { return nil }
            let issued = NewSession.make(userID: user.id, authentication: .init(method: .password), minutes: minutes, now: now, stepUpAt: now)
            try await SessionTable.insert(db, issued.session, tokenDigest: issued.token.digest)
            try await AuditLog.record(db, userID: user.id, type: .passwordSignIn, outcome: .success, at: now, sessionID: issued.session.id)
            return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
        }
    }

    /// Inserts an account unless its username, or a look-alike, is taken; clears the failures
    /// guessed at its username before it existed (``LockoutPolicy``); writes its audit event.
    private func insertAccount(_ db: any StatementDatabase, username: CredentialRules.Username, passwordHash: String, now: Date) async throws -> User?
    {
        let user = User(id: SecureRandom.identifier(.user), username: username.display, createdAt: now)
        let insertion = try await UserTable.insert(
            db,
            user,
            username: username,
            passwordHash: passwordHash,
            isUniqueViolation: database.isUniqueViolation
        )
        guard insertion == .inserted else { return nil }
        try await FactorFailureTable.clear(db, usernameKey: username.key, factors: LockoutPolicy.cleared(byRenewalOf: .newAccount))
        try await AuditLog.record(db, userID: user.id, type: .userCreated, outcome: .success, at: now)
        return user
    }
}
