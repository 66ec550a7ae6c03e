import BioAuthProtocol
import Foundation

/// Accounts: sign-up and the password change.
struct AccountService: Sendable {
    let database: any DatabaseProvider
    let check: PasswordCheck
    let stepUp: StepUp
    var core: AccountCore { check.core }

    /// Creates an account.
    func createUser(_ request: CreateUserRequest) async throws -> User {
        try await create(request) { _, user in user }
    }

    /// Creates an account and signs it in with a password session, in one transaction: the
    /// account page's sign-up.
    func createUserAndSignIn(_ request: CreateUserRequest) async throws -> SignInResponse {
        let minutes = core.sessions.defaultMinutes
        return try await create(request) { db, user in
            let issued = NewSession.make(
                userID: user.id,
                authentication: .init(method: .password),
                minutes: min(minutes, core.sessions.maximumMinutes),
                now: user.createdAt,
                stepUpAt: user.createdAt
            )
            try await SessionTable.insert(db, issued.session, tokenDigest: issued.token.digest)
            try await AuditLog.record(db, userID: user.id, type: .passwordSignIn, outcome: .success, at: user.createdAt, sessionID: issued.session.id)
            return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user)
        }
    }

    /// Checks the request, hashes the password, and inserts the account with its audit event;
    /// then, in the same transaction, `then` does the rest. A username taken, or a look-alike of
    /// one taken (``CredentialRules/Username/skeleton``), is `409 username_taken`.
    private func create<Result: Sendable>(
        _ request: CreateUserRequest,
        then: @escaping @Sendable (any StatementDatabase, User) async throws -> Result
    ) async throws -> Result {
        guard let username = CredentialRules.username(request.username) else {
            throw CredentialRules.invalidUsername
        }
        guard CredentialRules.isAcceptablePassword(request.password) else {
            throw Rejection(.invalidPassword, "A password is 8 to 256 characters.")
        }
        let user = User(id: SecureRandom.identifier(.user), username: username.display, createdAt: core.time.now())
        // Hash before taking the database, so the slow part never holds it.
        let passwordHash = try await check.hasher.hash(CredentialRules.normalisedPassword(request.password))
        let created = try await database.transaction { db -> Result? in
            let insertion = try await UserTable.insert(
                db,
                user,
                username: username,
                passwordHash: passwordHash,
                isUniqueViolation: database.isUniqueViolation
            )
            guard insertion == .inserted else { return nil }
            // Failures guessed at the username before it had an account do not pass to the account.
            try await FactorFailureTable.clear(db, usernameKey: username.key, factors: [.password, .pin])
            try await AuditLog.record(db, userID: user.id, type: .userCreated, outcome: .success, at: user.createdAt)
            return try await then(db, user)
        }
        guard let created else { throw Rejection(.usernameTaken, "That username, or one that looks like it, is taken.") }
        return created
    }

    /// Changes the caller's password, then ends every other session of the user and every sign-in
    /// still being checked (the credential epoch moves on), and lifts a one-time password's
    /// restriction from this session.
    ///
    /// It needs a recent strong authentication (``StepUp``) and the current password, checked as
    /// a re-authentication by the account core (a wrong one counts against the lockout). A session
    /// signed in with a one-time password needs neither: its one sign-in spent that password,
    /// at most ``SessionPolicy/restrictedMinutes`` ago, and it can do nothing else.
    func changePassword(_ request: ChangePasswordRequest, for caller: Caller) async throws {
        guard CredentialRules.isAcceptablePassword(request.newPassword) else {
            throw Rejection(.invalidPassword, "A password is 8 to 256 characters.")
        }
        let epoch: Int64
        if caller.passwordChangeRequired {
            guard let current = try await database.read({ db in try await UserTable.epoch(db, id: caller.userID) }) else {
                throw Rejection(.invalidSession, "The account no longer exists.")
            }
            epoch = current
        } else {
            try stepUp.require(caller)
            guard let currentPassword = request.currentPassword else {
                throw Rejection(.invalidRequest, "Missing field 'current_password'.")
            }
            guard let account = try await database.read({ db in try await UserTable.passwordAccount(db, id: caller.userID) }) else {
                throw Rejection(.invalidSession, "The account no longer exists.")
            }
            let proof = try await check.proof(currentPassword, for: account, usernameKey: account.usernameKey, event: .sessionReauthenticated)
            _ = try await core.complete(proof, for: .reauthenticate(caller))
            epoch = proof.epoch
        }
        let newHash = try await check.hasher.hash(CredentialRules.normalisedPassword(request.newPassword))
        let now = core.time.now()
        try await database.transaction { db in
            try await UserTable.lock(db, id: caller.userID)
            guard let key = try await UserTable.usernameKey(db, id: caller.userID),
                try await UserTable.epoch(db, id: caller.userID) == epoch
            else {
                throw Rejection(.invalidSession, "The account changed meanwhile; sign in again.")
            }
            try await UserTable.setPassword(db, id: caller.userID, hash: newHash)
            try await FactorFailureTable.clear(db, usernameKey: key, factors: [.password])
            _ = try await SessionTable.revokeAll(db, userID: caller.userID, sparing: caller.sessionID, now: now)
            try await SessionTable.clearPasswordChangeRequired(db, id: caller.sessionID)
            try await AuditLog.record(db, userID: caller.userID, type: .passwordChanged, outcome: .success, at: now, sessionID: caller.sessionID)
        }
    }
}
