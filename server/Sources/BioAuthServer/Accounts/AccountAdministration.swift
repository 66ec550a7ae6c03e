import BioAuthProtocol
import Foundation

/// What a support desk can do for a user who lost everything (`bioauth admin`): end their
/// sessions, revoke their device keys and passkeys, unlock their factors, and set a one-time
/// password that signs in once, expires, and must be changed at that sign-in.
///
/// Each action is one credential change of the account core's (``AccountCore/change(_:apply:)``),
/// on either database, acting on exactly one account: found by its id, or by its exact username
/// (never a look-alike), and named back with its id and creation time. Each moves the account's
/// credential epoch on (but the unlock), so that no sign-in checked before it yields a session
/// after it.
package struct AccountAdministration: Sendable {
    let core: AccountCore
    let hasher: PasswordHasher
    /// How long a one-time password may sign in.
    let oneTimePasswordLifetime: Duration

    /// A failure an operator can act on.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// The account an action is for.
    package struct Account: Sendable, Equatable, CustomStringConvertible {
        /// `usr_…`
        package var id: String
        /// The username as the user chose it.
        package var username: String
        /// When it was created.
        package var createdAt: Date
        /// `usr_… "alice", created 2026-11-26T12:00:00.000Z`.
        package var description: String { "\(id) \"\(username)\", created \(WireJSON.formatTimestamp(createdAt))" }
    }

    /// What was revoked, by kind.
    package typealias Revoked = EndedCredentials

    /// What ``recover(_:)`` did.
    package struct Recovery: Sendable, Equatable {
        /// What it revoked.
        package var revoked: Revoked
        /// The one-time password to hand to the user; it signs in once, for a password change,
        /// before ``expiresAt``.
        package var oneTimePassword: String
        /// When the one-time password stops working.
        package var expiresAt: Date
    }

    /// The account `user` names: a user id (`usr_…`), or exactly a username (compared as sign-in
    /// compares it, case-insensitively; a look-alike is another account).
    package func account(_ user: String) async throws -> Account {
        try await core.database.read { db in try await Self.find(db, user) }
    }

    /// Ends every live session of the account; returns how many.
    package func revokeSessions(_ account: Account) async throws -> Int {
        try await act(on: account, .sessionsRevoked(account.id)).sessions
    }

    /// Revokes every device key (biometric and PIN) and passkey of the account, and the sessions
    /// they signed in.
    package func revokeDevices(_ account: Account) async throws -> Revoked {
        try await act(on: account, .credentialsRevoked(account.id))
    }

    /// Clears the lockouts of the account's password and PIN (an escalated lock included).
    package func unlockFactors(_ account: Account) async throws {
        try await act(on: account, .factorsUnlocked(account.id))
    }

    /// Replaces the password with a new random one-time password, and ends every session (the
    /// old password may be someone else's now); returns the password, its expiry and how many
    /// sessions ended. Until the password is changed, no other factor signs in.
    package func resetPassword(_ account: Account) async throws -> (password: String, expiresAt: Date, sessionsRevoked: Int) {
        let (password, hash, expiresAt) = try await newOneTimePassword()
        let revoked = try await act(on: account, .passwordReset(account.id, hash: hash, oneTimeUntil: expiresAt))
        return (password, expiresAt, revoked.sessions)
    }

    /// All of the above, in one transaction (the one-time password hashed before it begins): the
    /// way back in for a user who lost every device and the password.
    package func recover(_ account: Account) async throws -> Recovery {
        let (password, hash, expiresAt) = try await newOneTimePassword()
        let revoked = try await act(on: account, .recovery(account.id, hash: hash, oneTimeUntil: expiresAt))
        return Recovery(revoked: revoked, oneTimePassword: password, expiresAt: expiresAt)
    }

    /// Closes the database.
    package func close() async throws {
        try await core.database.shutdown()
    }

    /// Has the account core make `change` on `account`, which must still be the account it was
    /// (same id, same creation time).
    @discardableResult
    private func act(on account: Account, _ change: CredentialChange) async throws -> Revoked {
        try await core.change(change) { db, _ in
            guard try await Self.find(db, account.id) == account else { throw Failure(description: "account \(account.id) no longer exists") }
        }.outcome
    }

    /// A new one-time password, its hash and its expiry.
    private func newOneTimePassword() async throws -> (password: String, hash: String, expiresAt: Date) {
        let password = Self.oneTimePassword()
        let hash = try await hasher.hash(password)
        return (password, hash, core.time.now().addingTimeInterval(oneTimePasswordLifetime.timeInterval))
    }

    private static func find(_ db: any StatementDatabase, _ user: String) async throws -> Account {
        let id: String?
        if user.hasPrefix(IdentifierPrefix.user.rawValue) {
            id = user
        } else {
            guard let name = CredentialRules.username(user) else { throw Failure(description: "\(user) is not a valid username") }
            id = try await UserTable.id(db, usernameKey: name.key)
        }
        guard let id, let found = try await UserTable.user(db, id: id) else { throw Failure(description: "no user \(user)") }
        return Account(id: found.id, username: found.username, createdAt: found.createdAt)
    }

    /// Five groups of five characters from an alphabet without look-alikes: about 120 bits.
    static func oneTimePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let characters = SecureRandom.bytes(25).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 25, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }
}

extension AccountAdministration {
    /// The account actions through `core`, as `configuration` sets them up (its bcrypt cost and
    /// one-time password lifetime).
    init(configuration: ServerConfiguration, core: AccountCore) {
        self.init(
            core: core,
            hasher: PasswordHasher(cost: configuration.passwordHashCost),
            oneTimePasswordLifetime: configuration.oneTimePasswordLifetime
        )
    }
}
