import BioAuthProtocol
import Foundation

/// A password's check, for the account core: a sign-in, a re-authentication, or the current
/// password of a password change.
///
/// An unknown username and a wrong password take the same path and make the same proof (no
/// account, not holding), counted under the username.
struct PasswordProof: FactorProof {
    /// The account, when the username has one.
    let account: PasswordAccount?
    let usernameKey: String
    let holds: Bool
    let attempt: LockoutPolicy.Attempt?

    var factor: AuthenticationMethod { .password }
    var userID: String? { account?.user.id }
    var epoch: Int64 { account?.epoch ?? 0 }
    var credential: CredentialInUse { .password }
    var failureSubject: AuditLog.Subject? { .username(usernameKey) }
    var signInEvent: AuditEvent.Kind { .passwordSignIn }
    var refusal: Rejection { Self.invalidCredentials }
    /// A password changed (or a one-time password spent) while it was checked is wrong now.
    var stale: Rejection { Self.invalidCredentials }
    /// A one-time password a racing sign-in spent first is wrong now too.
    var credentialGone: Rejection { Self.invalidCredentials }

    /// The one answer to every wrong secret and unknown account.
    static var invalidCredentials: Rejection {
        Rejection(.invalidCredentials, "The username or the secret is wrong.")
    }
}

/// Checks a password under the lockout: reserves the attempt, verifies one slow hash (a dummy one
/// when the username has no account, so both take as long), and says whether it matched; the
/// account core records the verdict.
struct PasswordCheck: Sendable {
    let hasher: PasswordHasher
    let core: AccountCore

    /// Checks `password` for `account` (or a username without one, `usernameKey`); `event` names
    /// the attempt in the audit trail if the password is locked.
    func proof(_ password: String, for account: PasswordAccount?, usernameKey: String, event: AuditEvent.Kind) async throws -> PasswordProof {
        try await hasher.admitted {
            let attempt = try await core.reserve(.password, usernameKey: usernameKey, subject: .username(usernameKey), event: event)
            let matches = try await hasher.verify(CredentialRules.normalisedPassword(password), against: account?.passwordHash)
            // A one-time password past its time (or spent) is checked like any password, and fails.
            let valid = account?.passwordIsValid(at: core.time.now()) ?? false
            return PasswordProof(account: account, usernameKey: usernameKey, holds: matches && valid, attempt: attempt)
        }
    }
}
