import BioAuthProtocol
import Foundation
import SQLKit

/// Sign-in with username and password.
///
/// An unknown username and a wrong password take the same path: the attempt is reserved against
/// the lockout, one slow hash is verified (a dummy one when there is no account), the failure is
/// counted under the username, and the answer is the same `invalid_credentials`.
struct PasswordSignInService: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let guarded: LockoutGuard
    let sessions: SessionService
    let time: TimeSource

    /// Signs in with username and password. A password sign-in also unlocks a locked PIN.
    func signIn(_ request: PasswordSignInRequest) async throws -> SignInResponse {
        let minutes = try sessions.duration(requested: request.sessionDurationMinutes)
        let secret = CredentialRules.normalisedPassword(request.password)
        // A username that breaks the rules cannot belong to an account: verify against the dummy
        // hash like any unknown user, but keep no counter for it.
        guard let username = CredentialRules.username(request.username) else {
            _ = try await hasher.verify(secret, against: nil)
            throw LockoutGuard.invalidCredentials
        }
        let account = try await database.read { db in try await UserTable.passwordAccount(db, usernameKey: username.key) }
        let target = LockoutGuard.Target(usernameKey: username.key, factor: .password, subject: .username(username.key), event: .passwordSignIn)
        let user = try await guarded.attempt(target) { () -> PasswordAccount? in
            try await hasher.verify(secret, against: account?.passwordHash) ? account : nil
        }
        let now = time.now()
        let issued = try await database.transaction { db in
            try await FactorLockout.clear(db, usernameKey: username.key, factor: .password)
            try await FactorLockout.clear(db, usernameKey: username.key, factor: .pin)
            let issued = try await SessionService.insert(db, userID: user.user.id, authentication: .init(method: .password), minutes: minutes,
                                                         now: now, passwordChangeRequired: user.passwordChangeRequired)
            try await AuditLog.record(db, userID: user.user.id, type: .passwordSignIn, outcome: .success, at: now, sessionID: issued.session.id)
            return issued
        }
        return SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user.user)
    }
}
