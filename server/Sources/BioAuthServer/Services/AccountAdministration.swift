import BioAuthProtocol
import Foundation

/// What a support desk can do for a user who lost everything (`bioauth admin`): end their
/// sessions, revoke their device keys and passkeys, unlock their factors, and set a one-time
/// password that signs in once, expires, and must be changed at that sign-in.
///
/// Each action is one transaction with its audit event, on either database, acting on exactly one
/// account: found by its id, or by its exact username (never a look-alike), and named back with its
/// id and creation time. Each moves the account's credential epoch on (but the unlock), so that
/// no sign-in checked before it yields a session after it.
package struct AccountAdministration: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let time: TimeSource
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
    package struct Revoked: Sendable, Equatable {
        /// Sessions ended.
        package var sessions = 0
        /// Biometric keys revoked.
        package var biometricKeys = 0
        /// PIN keys revoked (the PIN with them).
        package var pinKeys = 0
        /// Passkeys revoked.
        package var passkeys = 0
    }

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
        try await database.read { db in try await Self.find(db, user) }
    }

    /// Ends every live session of the account; returns how many.
    package func revokeSessions(_ account: Account) async throws -> Int {
        try await act(on: account, event: .adminSessionsRevoked) { db, now in
            try await SessionTable.revokeAll(db, userID: account.id, sparing: nil, now: now)
        }
    }

    /// Revokes every device key (biometric and PIN) and passkey of the account, and the sessions
    /// they signed in.
    package func revokeDevices(_ account: Account) async throws -> Revoked {
        try await act(on: account, event: .adminRegistrationsRevoked) { db, now in
            try await Self.revokeDevices(db, userID: account.id, now: now)
        }
    }

    /// Clears the lockouts of the account's password and PIN (an escalated lock included).
    package func unlockFactors(_ account: Account) async throws {
        try await act(on: account, event: .adminFactorsUnlocked, movesEpoch: false) { db, _ in
            try await Self.unlock(db, userID: account.id)
        }
    }

    /// Replaces the password with a new random one-time password, and ends every session (the
    /// old password may be someone else's now); returns the password, its expiry and how many
    /// sessions ended. Until the password is changed, no other factor signs in.
    package func resetPassword(_ account: Account) async throws -> (password: String, expiresAt: Date, sessionsRevoked: Int) {
        let password = Self.oneTimePassword()
        let hash = try await hasher.hash(password)
        let expiresAt = time.now().addingTimeInterval(oneTimePasswordLifetime.timeInterval)
        let sessions = try await act(on: account, event: .adminPasswordReset) { db, now in
            try await Self.setOneTimePassword(db, userID: account.id, hash: hash, expiresAt: expiresAt)
            return try await SessionTable.revokeAll(db, userID: account.id, sparing: nil, now: now)
        }
        return (password, expiresAt, sessions)
    }

    /// All of the above, in one transaction (the one-time password hashed before it begins): the
    /// way back in for a user who lost every device and the password.
    package func recover(_ account: Account) async throws -> Recovery {
        let password = Self.oneTimePassword()
        let hash = try await hasher.hash(password)
        let expiresAt = time.now().addingTimeInterval(oneTimePasswordLifetime.timeInterval)
        let revoked = try await act(on: account, event: .adminSessionsRevoked) { db, now in
            let sessions = try await SessionTable.revokeAll(db, userID: account.id, sparing: nil, now: now)
            var revoked = try await Self.revokeDevices(db, userID: account.id, now: now)
            revoked.sessions = sessions
            try await Self.unlock(db, userID: account.id)
            try await Self.setOneTimePassword(db, userID: account.id, hash: hash, expiresAt: expiresAt)
            for event in [AuditEvent.Kind.adminRegistrationsRevoked, .adminFactorsUnlocked, .adminPasswordReset] {
                try await AuditLog.record(db, userID: account.id, type: event, outcome: .success, at: now)
            }
            return revoked
        }
        return Recovery(revoked: revoked, oneTimePassword: password, expiresAt: expiresAt)
    }

    /// Closes the database.
    package func close() async throws {
        try await database.shutdown()
    }

    /// Runs `body` in one transaction on `account` (which must still be the account it was: same
    /// id, same creation time), moving its credential epoch on first unless told not to, and
    /// records `event`.
    private func act<T: Sendable>(
        on account: Account,
        event: AuditEvent.Kind,
        movesEpoch: Bool = true,
        _ body: @escaping @Sendable (any StatementDatabase, Date) async throws -> T
    ) async throws -> T {
        let now = time.now()
        return try await database.transaction { db in
            guard try await Self.find(db, account.id) == account else { throw Failure(description: "account \(account.id) no longer exists") }
            if movesEpoch { try await UserTable.advanceEpoch(db, id: account.id) }
            let result = try await body(db, now)
            try await AuditLog.record(db, userID: account.id, type: event, outcome: .success, at: now)
            return result
        }
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

    private static func revokeDevices(_ db: any StatementDatabase, userID: String, now: Date) async throws -> Revoked {
        var revoked = Revoked()
        for (kind, count) in [(RegistrationKind.biometric, \Revoked.biometricKeys), (.pin, \Revoked.pinKeys)] {
            let ids = try await RegistrationTable.liveIDs(db, userID: userID, kind: kind)
            for id in ids { try await RegistrationService.revoke(db, registrationID: id, sparing: nil, now: now) }
            revoked[keyPath: count] = ids.count
        }
        let passkeys = try await PasskeyTable.revoke(db, userID: userID, now: now)
        for id in passkeys { try await SessionTable.revokeSigned(db, by: .passkey(id), sparing: nil, now: now) }
        revoked.passkeys = passkeys.count
        return revoked
    }

    private static func unlock(_ db: any StatementDatabase, userID: String) async throws {
        guard let key = try await UserTable.usernameKey(db, id: userID) else { return }
        try await FactorFailureTable.clear(db, usernameKey: key, factors: [.password, .pin])
    }

    private static func setOneTimePassword(_ db: any StatementDatabase, userID: String, hash: String, expiresAt: Date) async throws {
        try await UserTable.setPassword(db, id: userID, hash: hash, oneTimeUntil: expiresAt)
        guard let key = try await UserTable.usernameKey(db, id: userID) else { return }
        try await FactorFailureTable.clear(db, usernameKey: key, factors: [.password])
    }

    /// Five groups of five characters from an alphabet without look-alikes: about 120 bits.
    static func oneTimePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let characters = SecureRandom.bytes(25).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 25, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }
}

extension AccountAdministration {
    /// The account actions over `database` as `configuration` sets them up (its bcrypt cost and
    /// one-time password lifetime).
    init(configuration: ServerConfiguration, database: any DatabaseProvider, time: TimeSource) {
        self.init(
            database: database,
            hasher: PasswordHasher(cost: configuration.passwordHashCost),
            time: time,
            oneTimePasswordLifetime: configuration.oneTimePasswordLifetime
        )
    }
}
