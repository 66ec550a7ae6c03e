import BioAuthProtocol
import Foundation

/// Sign-in with username and password (a one-time password too).
///
/// An unknown username and a wrong password take the same path: the attempt is reserved against
/// the lockout, one slow hash is verified (a dummy one when there is no account), the failure is
/// counted under the username, and the answer is the same `invalid_credentials`.
struct PasswordSignInService: Sendable {
    let database: any DatabaseProvider
    let check: PasswordCheck
    let core: AccountCore

    /// Signs in with username and password. A password sign-in also unlocks a locked PIN.
    func signIn(_ request: PasswordSignInRequest) async throws -> SignInResponse {
        let minutes = try core.sessions.minutes(requested: request.sessionDurationMinutes)
        let proof = try await verify(username: request.username, password: request.password)
        return try await core.complete(proof, for: .signIn(minutes: minutes)).signInResponse
    }

    /// Reads the account, reserves the attempt and checks the password: the proof, not yet acted on.
    func verify(username: String, password: String) async throws -> PasswordProof {
        // A username that breaks the rules cannot belong to an account: verify against the dummy
        // hash like any unknown user, but keep no counter for it.
        guard let username = CredentialRules.username(username) else {
            _ = try await check.hasher.verify(CredentialRules.normalisedPassword(password), against: nil)
            throw PasswordProof.invalidCredentials
        }
        let account = try await database.read { db in try await UserTable.passwordAccount(db, usernameKey: username.key) }
        return try await check.proof(password, for: account, usernameKey: username.key, event: .passwordSignIn)
    }
}
