import BioAuthProtocol
import Foundation

extension AccountCore {
    /// Makes `change` (see ``change(_:apply:)``) with nothing of its own to write.
    @discardableResult
    func change(_ change: CredentialChange) async throws -> EndedCredentials {
        try await self.change(change) { _, _ in }.outcome
    }

    /// The one way an account's credentials change: in one transaction, lock the account's row (a
    /// sign-in's completion or another change waits for it), check that the account still exists,
    /// that the owner's session is still live and that nothing changed since the check behind the
    /// change; move the credential epoch on (exactly once, if the change voids verifications in
    /// flight); store a new password; run `apply` (the change's own writes, which may refuse it by
    /// throwing, and then nothing is written); clear the failure counters ``LockoutPolicy`` says;
    /// end the sessions and revoke the credentials the change ends; write its audit events.
    func change<Result: Sendable>(
        _ change: CredentialChange,
        apply: @escaping @Sendable (any StatementDatabase, Date) async throws -> Result
    ) async throws -> (result: Result, outcome: EndedCredentials) {
        let now = time.now()
        return try await database.transaction { db in
            try await UserTable.lock(db, id: change.userID)
            guard let epoch = try await UserTable.epoch(db, id: change.userID) else {
                throw Rejection(.invalidSession, "The account no longer exists.")
            }
            if let caller = change.caller, try await SessionTable.live(db, userID: caller.userID, id: caller.sessionID, now: now).isEmpty {
                throw Rejection(.invalidSession, "The session has ended.")
            }
            if let verified = change.verifiedEpoch, verified != epoch {
                throw Rejection(.invalidSession, "The account changed meanwhile; sign in again.")
            }
            if change.movesEpoch { try await UserTable.advanceEpoch(db, id: change.userID) }
            if let password = change.password {
                try await UserTable.setPassword(db, id: change.userID, hash: password.hash, oneTimeUntil: password.oneTimeUntil)
                // A password its owner chose lifts a one-time password's restriction from the session that set it.
                if let caller = change.caller { try await SessionTable.clearPasswordChangeRequired(db, id: caller.sessionID) }
            }
            let result = try await apply(db, now)
            if let renewal = change.renews, let key = try await UserTable.usernameKey(db, id: change.userID) {
                try await FactorFailureTable.clear(db, usernameKey: key, factors: LockoutPolicy.cleared(byRenewalOf: renewal))
            }
            var outcome = EndedCredentials()
            outcome.sessions = try await Self.endSessions(change, db, now: now)
            try await Self.revoke(change, db, now: now, into: &outcome)
            for event in change.events {
                try await AuditLog.record(
                    db,
                    userID: change.userID,
                    type: event,
                    outcome: .success,
                    at: now,
                    registrationID: change.registrationID,
                    passkeyID: change.passkeyID,
                    sessionID: change.sessionID
                )
            }
            return (result, outcome)
        }
    }

    /// Ends the sessions `change` ends; how many.
    private static func endSessions(_ change: CredentialChange, _ db: any StatementDatabase, now: Date) async throws -> Int {
        switch change.endsSessions {
        case .none:
            return 0
        case .all:
            return try await SessionTable.revokeAll(db, userID: change.userID, sparing: nil, now: now)
        case .allButCaller:
            return try await SessionTable.revokeAll(db, userID: change.userID, sparing: change.caller?.sessionID, now: now)
        case .one(let id):
            guard try await SessionTable.revoke(db, id: id, userID: change.userID, now: now) else {
                throw Rejection(.notFound, "No such session.")
            }
            return 1
        }
    }

    /// Revokes the credentials `change` revokes, with the sessions they signed in (but the caller's).
    private static func revoke(_ change: CredentialChange, _ db: any StatementDatabase, now: Date, into outcome: inout EndedCredentials) async throws
    {
        let sparing = change.caller?.sessionID
        switch change.revokes {
        case .none:
            break
        case .everyCredential:
            for kind in [RegistrationKind.biometric, .pin] {
                let ids = try await RegistrationTable.liveIDs(db, userID: change.userID, kind: kind)
                for id in ids { try await revokeDeviceKey(id, db, sparing: sparing, now: now) }
                if kind == .pin { outcome.pinKeys = ids.count } else { outcome.biometricKeys = ids.count }
            }
            let passkeys = try await PasskeyTable.revoke(db, userID: change.userID, now: now)
            for id in passkeys { try await SessionTable.revokeSigned(db, by: .passkey(id), sparing: sparing, now: now) }
            outcome.passkeys = passkeys.count
        case .deviceKey(let id):
            guard try await RegistrationTable.find(db, id: id, userID: change.userID) != nil else {
                throw Rejection(.registrationNotFound, "No such registration.")
            }
            try await revokeDeviceKey(id, db, sparing: sparing, now: now)
        case .passkey(let id):
            guard try await !PasskeyTable.revoke(db, id: id, userID: change.userID, now: now).isEmpty else {
                throw Rejection(.notFound, "No such passkey.")
            }
            try await SessionTable.revokeSigned(db, by: .passkey(id), sparing: sparing, now: now)
            outcome.passkeys = 1
        case .pinKeysBut(let kept):
            let ids = try await RegistrationTable.liveIDs(db, userID: change.userID, kind: .pin, except: kept)
            for id in ids { try await revokeDeviceKey(id, db, sparing: sparing, now: now) }
            outcome.pinKeys = ids.count
        }
    }

    /// Revokes a device key: its status, its challenges, and the sessions it signed in but `sparing`.
    private static func revokeDeviceKey(_ id: String, _ db: any StatementDatabase, sparing: String?, now: Date) async throws {
        try await RegistrationTable.revoke(db, id: id, now: now)
        try await ChallengeTable.deleteAll(db, registrationID: id)
        try await SessionTable.revokeSigned(db, by: .registration(id), sparing: sparing, now: now)
    }
}
