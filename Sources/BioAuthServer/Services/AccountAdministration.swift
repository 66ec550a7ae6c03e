import BioAuthProtocol
import Foundation
import SQLKit

/// What a support desk can do for a user who lost everything (`bioauth admin`): end their
/// sessions, revoke their device keys, unlock their factors, and set a one-time password that
/// must be changed at the next sign-in. Each action is one transaction with its audit event, on
/// either database.
package struct AccountAdministration: Sendable {
    let database: any DatabaseProvider
    let hasher: PasswordHasher
    let time: TimeSource

    /// A failure an operator can act on.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// What ``recover(username:)`` did.
    package struct Recovery: Sendable, Equatable {
        /// Sessions ended.
        package var sessionsRevoked: Int
        /// Device keys (biometric and PIN) revoked.
        package var registrationsRevoked: Int
        /// The one-time password to hand to the user; it works once, for a password change.
        package var oneTimePassword: String
    }

    /// Ends every live session of the user; returns how many.
    package func revokeSessions(username: String) async throws -> Int {
        try await withUser(username) { db, user, now in
            let count = try await SessionTable.revokeAll(db, userID: user.id, sparing: nil, now: now)
            try await AuditLog.record(db, userID: user.id, type: .adminSessionsRevoked, outcome: .success, at: now)
            return count
        }
    }

    /// Revokes every device key (biometric and PIN) of the user, and the sessions they signed in;
    /// returns how many keys.
    package func revokeRegistrations(username: String) async throws -> Int {
        try await withUser(username) { db, user, now in
            let ids = try await RegistrationTable.liveIDs(db, userID: user.id)
            for id in ids { try await RegistrationService.revoke(db, registrationID: id, sparing: nil, now: now) }
            try await AuditLog.record(db, userID: user.id, type: .adminRegistrationsRevoked, outcome: .success, at: now)
            return ids.count
        }
    }

    /// Clears the lockouts of the user's password and PIN (an escalated PIN lock included).
    package func unlockFactors(username: String) async throws {
        try await withUser(username) { db, user, now in
            try await FactorLockout.clear(db, usernameKey: user.usernameKey, factor: .password)
            try await FactorLockout.clear(db, usernameKey: user.usernameKey, factor: .pin)
            try await AuditLog.record(db, userID: user.id, type: .adminFactorsUnlocked, outcome: .success, at: now)
        }
    }

    /// Replaces the password with a new random one-time password and returns it: the user signs
    /// in with it, and that session can do nothing but change the password.
    package func resetPassword(username: String) async throws -> String {
        let password = Self.oneTimePassword()
        let hash = try await hasher.hash(password)
        try await withUser(username) { db, user, now in
            try await UserTable.setPassword(db, id: user.id, hash: hash, changeRequired: true)
            try await FactorLockout.clear(db, usernameKey: user.usernameKey, factor: .password)
            try await AuditLog.record(db, userID: user.id, type: .adminPasswordReset, outcome: .success, at: now)
        }
        return password
    }

    /// All of the above: the way back in for a user who lost every device and the password.
    package func recover(username: String) async throws -> Recovery {
        let sessions = try await revokeSessions(username: username)
        let registrations = try await revokeRegistrations(username: username)
        try await unlockFactors(username: username)
        let password = try await resetPassword(username: username)
        return Recovery(sessionsRevoked: sessions, registrationsRevoked: registrations, oneTimePassword: password)
    }

    /// Closes the database.
    package func close() async throws {
        try await database.shutdown()
    }

    private struct Account: Sendable {
        var id: String
        var usernameKey: String
    }

    private func withUser<T: Sendable>(
        _ username: String, _ body: @escaping @Sendable (any StatementDatabase, Account, Date) async throws -> T
    ) async throws -> T {
        guard let name = CredentialRules.username(username) else { throw Failure(description: "\(username) is not a valid username") }
        let now = time.now()
        return try await database.transaction { db in
            guard let id = try await UserTable.id(db, usernameKey: name.key) else {
                throw Failure(description: "no user named \(name.display)")
            }
            return try await body(db, Account(id: id, usernameKey: name.key), now)
        }
    }

    /// Five groups of five characters from an alphabet without look-alikes: about 120 bits.
    static func oneTimePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let characters = SecureRandom.bytes(25).map { alphabet[Int($0) % alphabet.count] }
        return stride(from: 0, to: 25, by: 5).map { String(characters[$0..<$0 + 5]) }.joined(separator: "-")
    }
}
