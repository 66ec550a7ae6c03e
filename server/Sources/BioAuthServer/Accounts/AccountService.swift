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
        let (username, hash) = try await checked(request)
        guard let user = try await core.createAccount(username: username, passwordHash: hash) else { throw usernameTaken }
        return user
    }

    /// Creates an account and signs it in with a password session, in one transaction: the
    /// account page's sign-up.
    func createUserAndSignIn(_ request: CreateUserRequest) async throws -> SignInResponse {
        let (username, hash) = try await checked(request)
        guard let signIn = try await core.createAccountAndSignIn(username: username, passwordHash: hash) else { throw usernameTaken }
        return signIn
    }

    /// The sign-up's username and its password's hash, hashed before the database is taken so the
    /// slow part never holds it.
    private func checked(_ request: CreateUserRequest) async throws -> (CredentialRules.Username, String) {
        guard let username = CredentialRules.username(request.username) else {
            throw CredentialRules.invalidUsername
        }
        guard CredentialRules.isAcceptablePassword(request.password) else {
            throw Rejection(.invalidPassword, "A password is 8 to 256 characters.")
        }
        return (username, try await check.hasher.hash(CredentialRules.normalisedPassword(request.password)))
    }

    /// A username taken, or a look-alike of one taken (``CredentialRules/Username/skeleton``).
    private var usernameTaken: Rejection { Rejection(.usernameTaken, "That username, or one that looks like it, is taken.") }

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
        try await core.change(.passwordChange(by: caller, hash: newHash, verifiedEpoch: epoch))
    }
}
