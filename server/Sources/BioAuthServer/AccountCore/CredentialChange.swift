import BioAuthProtocol
import Foundation

/// A change to an account's credentials as the account core makes it
/// (``AccountCore/change(_:apply:)``): whose account, who asks, and what follows from it. Which
/// change voids the verifications in flight, sets a password, clears which counters, ends which
/// sessions and revokes which credentials is written here once, one constructor per change; the
/// core carries it out in one transaction.
struct CredentialChange: Sendable {
    /// Who asks for a change.
    enum Actor: Sendable {
        /// The account's owner, through a session that must still be live when the change is made:
        /// a recovery or revocation that ended it after its step-up refuses the change.
        case owner(Caller)
        /// An operator (`bioauth admin`).
        case `operator`
    }

    /// Which of the account's sessions a change ends.
    enum SessionEnding: Sendable, Equatable {
        case none
        /// Every live session.
        case all
        /// Every live session but the caller's.
        case allButCaller
        /// One live session of the account's.
        case one(id: String)
    }

    /// Which of the account's credentials a change revokes, with the sessions each signed in.
    enum Revocation: Sendable, Equatable {
        case none
        /// Every device key (biometric and PIN) and passkey; their sessions all end.
        case everyCredential
        /// One device key, pending or active; its sessions end but the caller's.
        case deviceKey(id: String)
        /// One passkey; its sessions end but the caller's.
        case passkey(id: String)
        /// Every PIN key but the one just verified (one PIN per account); their sessions end but the
        /// caller's.
        case pinKeysBut(id: String)
    }

    /// A password to store.
    struct NewPassword: Sendable {
        /// Its hash.
        var hash: String
        /// For a one-time password an operator set: when it stops signing in. It must be changed at
        /// its one sign-in.
        var oneTimeUntil: Date?
    }

    /// The account.
    var userID: String
    var actor: Actor
    /// The credential epoch a check behind the change saw (the current password's): the change is
    /// refused if the account changed since.
    var verifiedEpoch: Int64?
    /// Whether it voids every verification in flight (moves the credential epoch on, exactly once).
    var movesEpoch: Bool
    var password: NewPassword?
    /// What it renews, for the failure counters (``LockoutPolicy/cleared(byRenewalOf:)``).
    var renews: LockoutPolicy.Renewal?
    var endsSessions: SessionEnding = .none
    var revokes: Revocation = .none
    /// Its audit events, in order.
    var events: [AuditEvent.Kind]
    /// The credential the events name.
    var registrationID: String?
    var passkeyID: String?
    /// The session the events name.
    var sessionID: String?

    /// The caller, for a change its owner asked for.
    var caller: Caller? {
        if case .owner(let caller) = actor { return caller }
        return nil
    }
}

/// What a credential change ended, by kind.
package struct EndedCredentials: Sendable, Equatable {
    /// Sessions ended.
    package var sessions = 0
    /// Biometric keys revoked.
    package var biometricKeys = 0
    /// PIN keys revoked (the PIN with them).
    package var pinKeys = 0
    /// Passkeys revoked.
    package var passkeys = 0

    /// So many of each.
    package init(sessions: Int = 0, biometricKeys: Int = 0, pinKeys: Int = 0, passkeys: Int = 0) {
        self.sessions = sessions
        self.biometricKeys = biometricKeys
        self.pinKeys = pinKeys
        self.passkeys = passkeys
    }
}

extension CredentialChange {
    /// The owner sets a new password, having shown the current one (its check saw `verifiedEpoch`)
    /// or signed in with a one-time password: every other session and verification in flight ends,
    /// and the caller's session loses a one-time password's restriction.
    static func passwordChange(by caller: Caller, hash: String, verifiedEpoch: Int64) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            verifiedEpoch: verifiedEpoch,
            movesEpoch: true,
            password: NewPassword(hash: hash),
            renews: .password,
            endsSessions: .allButCaller,
            events: [.passwordChanged],
            sessionID: caller.sessionID
        )
    }

    /// The owner ends every other session ("sign out everywhere else") and every verification in flight.
    static func otherSessionsEnded(by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: true,
            endsSessions: .allButCaller,
            events: [.otherSessionsRevoked],
            sessionID: caller.sessionID
        )
    }

    /// The owner ends one session: the caller's own (a sign-out) or another.
    static func sessionEnded(_ sessionID: String, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            endsSessions: .one(id: sessionID),
            events: [sessionID == caller.sessionID ? .sessionSignedOut : .sessionRevoked],
            sessionID: sessionID
        )
    }

    /// The owner starts registering a device key (a pending key, not yet a credential).
    static func deviceKeyStarted(_ registrationID: String, kind: RegistrationKind, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            events: kind == .biometric ? [.registrationStarted] : [],
            registrationID: registrationID
        )
    }

    /// A device key the owner registered proved possession: it becomes a credential. A PIN key
    /// replaces every other PIN key (one PIN per account) and clears the PIN's counters.
    static func deviceKeyAdded(_ registrationID: String, kind: RegistrationKind, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            renews: kind == .pin ? .pin : nil,
            revokes: kind == .pin ? .pinKeysBut(id: registrationID) : .none,
            events: [kind == .pin ? .pinSet : .registrationVerified],
            registrationID: registrationID
        )
    }

    /// The owner adds a passkey.
    static func passkeyAdded(_ passkeyID: String, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            events: [.passkeyRegistered],
            passkeyID: passkeyID,
            sessionID: caller.sessionID
        )
    }

    /// The owner revokes one device key.
    static func deviceKeyRevoked(_ registrationID: String, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            revokes: .deviceKey(id: registrationID),
            events: [.registrationDeleted],
            registrationID: registrationID
        )
    }

    /// The owner revokes one passkey.
    static func passkeyRevoked(_ passkeyID: String, by caller: Caller) -> Self {
        Self(
            userID: caller.userID,
            actor: .owner(caller),
            movesEpoch: false,
            revokes: .passkey(id: passkeyID),
            events: [.passkeyDeleted],
            passkeyID: passkeyID,
            sessionID: caller.sessionID
        )
    }

    /// An operator ends every session of the account.
    static func sessionsRevoked(_ userID: String) -> Self {
        Self(userID: userID, actor: .operator, movesEpoch: true, endsSessions: .all, events: [.adminSessionsRevoked])
    }

    /// An operator revokes every device key and passkey of the account.
    static func credentialsRevoked(_ userID: String) -> Self {
        Self(userID: userID, actor: .operator, movesEpoch: true, revokes: .everyCredential, events: [.adminRegistrationsRevoked])
    }

    /// An operator revokes one device key of the account, and the sessions it signed in.
    static func deviceKeyRevoked(_ registrationID: String, of userID: String) -> Self {
        Self(
            userID: userID,
            actor: .operator,
            movesEpoch: true,
            revokes: .deviceKey(id: registrationID),
            events: [.adminRegistrationsRevoked],
            registrationID: registrationID
        )
    }

    /// An operator unlocks the password and the PIN. Nothing a verification saw changes.
    static func factorsUnlocked(_ userID: String) -> Self {
        Self(userID: userID, actor: .operator, movesEpoch: false, renews: .unlock, events: [.adminFactorsUnlocked])
    }

    /// An operator replaces the password with a one-time password, and ends every session (the
    /// old password may be someone else's now).
    static func passwordReset(_ userID: String, hash: String, oneTimeUntil: Date) -> Self {
        Self(
            userID: userID,
            actor: .operator,
            movesEpoch: true,
            password: NewPassword(hash: hash, oneTimeUntil: oneTimeUntil),
            renews: .password,
            endsSessions: .all,
            events: [.adminPasswordReset]
        )
    }

    /// An operator's recovery: every session ends, every credential is revoked, the factors are
    /// unlocked and a one-time password replaces the password, at once.
    static func recovery(_ userID: String, hash: String, oneTimeUntil: Date) -> Self {
        Self(
            userID: userID,
            actor: .operator,
            movesEpoch: true,
            password: NewPassword(hash: hash, oneTimeUntil: oneTimeUntil),
            renews: .unlock,
            endsSessions: .all,
            revokes: .everyCredential,
            events: [.adminSessionsRevoked, .adminRegistrationsRevoked, .adminFactorsUnlocked, .adminPasswordReset]
        )
    }
}
