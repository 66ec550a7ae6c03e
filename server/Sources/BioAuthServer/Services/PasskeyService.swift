import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Passkeys: adding one (a registration ceremony, after a strong step-up), listing, renaming and
/// revoking them. The WebAuthn checks themselves are the ceremony core's (``RelyingParty``);
/// this type binds them to storage: the single-use challenge, the credential's owner, the
/// credential id's uniqueness, the audit trail.
struct PasskeyService: Sendable {
    let database: any DatabaseProvider
    let relyingParty: RelyingParty
    let stepUp: StepUp
    let time: TimeSource
    let challengeTTL: Duration
    let maxPasskeysPerUser: Int

    /// Starts adding a passkey: creation options for the caller, bound to their session, with
    /// their existing passkeys excluded. Needs a recent sign-in.
    func registrationOptions(for caller: Caller) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialCreationOptionsJSON> {
        try stepUp.require(caller)
        let now = time.now()
        let ceremonyID = SecureRandom.identifier(.webAuthnCeremony)
        let challenge = SecureRandom.bytes(ProtocolLimits.challengeByteCount)
        let (user, existing) = try await database.transaction { db in
            guard let user = try await UserTable.user(db, id: caller.userID) else {
                throw Rejection(.invalidSession, "The account no longer exists.")
            }
            let existing = try await PasskeyTable.credentials(db, userID: caller.userID)
            guard existing.filter(\.isActive).count < maxPasskeysPerUser else { throw tooMany }
            try await WebAuthnChallengeTable.insert(
                db,
                id: ceremonyID,
                ceremony: .registration,
                userID: caller.userID,
                sessionID: caller.sessionID,
                challenge: challenge,
                now: now,
                expiresAt: now.addingTimeInterval(challengeTTL.timeInterval)
            )
            return (user, existing)
        }
        let options = relyingParty.creationOptions(
            challenge: Array(challenge),
            userHandle: Self.userHandle(caller.userID),
            userName: user.username,
            displayName: user.username,
            excluding: existing.map(\.descriptor),
            timeout: challengeTTL
        )
        return PasskeyCeremonyResponse(ceremonyID: ceremonyID, publicKey: options)
    }

    /// Finishes adding a passkey: the ceremony must be the caller's session's, the response
    /// must pass the registration procedure, and the credential id must be new. The ceremony's
    /// challenge is spent by any well-formed attempt, whatever the outcome.
    func register(_ request: RegisterPasskeyRequest, for caller: Caller) async throws -> Passkey {
        let label = try CredentialRules.label(request.label ?? "")
        guard
            let ceremony = try await database.read({ db in
                try await WebAuthnChallengeTable.read(db, id: request.ceremonyID, ceremony: .registration)
            }), ceremony.userID == caller.userID, ceremony.sessionID == caller.sessionID
        else {
            throw Rejection(.challengeInvalid, "No registration ceremony with that id is open for this session.")
        }
        let verdict: Result<VerifiedRegistration, WebAuthnError>
        do {
            verdict = .success(try await relyingParty.verifyRegistration(request.credential, challenge: ceremony.challenge, now: time.now()))
        } catch {
            verdict = .failure(error)
        }
        let now = time.now()
        enum Outcome: Sendable {
            case added(StoredPasskey)
            case spent
            case refused(WebAuthnError)
            case duplicate, tooMany
        }
        let id = SecureRandom.identifier(.passkey)
        let outcome = try await database.transaction { db -> Outcome in
            guard try await WebAuthnChallengeTable.consume(db, id: request.ceremonyID, ceremony: .registration, now: now) else { return .spent }
            let registration: VerifiedRegistration
            switch verdict {
            case .failure(let error):
                try await AuditLog.record(
                    db,
                    userID: caller.userID,
                    type: .passkeyRegistered,
                    outcome: .failure,
                    at: now,
                    sessionID: caller.sessionID
                )
                return .refused(error)
            case .success(let verified): registration = verified
            }
            // The cap again, where the passkey is stored: ceremonies opened under it may finish together.
            try await UserTable.lock(db, id: caller.userID)
            guard try await PasskeyTable.activeCount(db, userID: caller.userID) < maxPasskeysPerUser else { return .tooMany }
            guard try await PasskeyTable.find(db, credentialID: registration.credentialID, anyStatus: true) == nil,
                try await PasskeyTable.insert(
                    db,
                    id: id,
                    userID: caller.userID,
                    registration,
                    label: label,
                    now: now,
                    isUniqueViolation: database.isUniqueViolation
                )
            else { return .duplicate }
            try await AuditLog.record(
                db,
                userID: caller.userID,
                type: .passkeyRegistered,
                outcome: .success,
                at: now,
                passkeyID: id,
                sessionID: caller.sessionID
            )
            return .added(try await PasskeyTable.find(db, id: id, userID: caller.userID)!)
        }
        switch outcome {
        case .added(let stored): return Passkey(stored)
        case .spent: throw Rejection(.challengeInvalid, "The registration ceremony has expired or was already used; start again.")
        case .refused(let error): throw Rejection(error)
        case .duplicate: throw Rejection(.duplicateRegistration, "This passkey is already registered.")
        case .tooMany: throw tooMany
        }
    }

    /// The caller's passkeys, newest first.
    func list(for caller: Caller) async throws -> [Passkey] {
        try await database.read { db in try await PasskeyTable.all(db, userID: caller.userID) }.map(Passkey.init)
    }

    /// Renames one of the caller's passkeys.
    func rename(id: String, to label: String, for caller: Caller) async throws -> Passkey {
        let label = try CredentialRules.label(label)
        let now = time.now()
        let stored = try await database.transaction { db -> StoredPasskey? in
            guard try await PasskeyTable.rename(db, id: id, userID: caller.userID, label: label) else { return nil }
            try await AuditLog.record(
                db,
                userID: caller.userID,
                type: .passkeyRenamed,
                outcome: .success,
                at: now,
                passkeyID: id,
                sessionID: caller.sessionID
            )
            return try await PasskeyTable.find(db, id: id, userID: caller.userID)
        }
        guard let stored else { throw Rejection(.notFound, "No such passkey.") }
        return Passkey(stored)
    }

    /// Revokes one of the caller's passkeys and ends the sessions it signed in, except the
    /// caller's own.
    func delete(id: String, for caller: Caller) async throws {
        let now = time.now()
        let revoked = try await database.transaction { db -> Bool in
            guard !(try await PasskeyTable.revoke(db, id: id, userID: caller.userID, now: now)).isEmpty else { return false }
            try await SessionTable.revokeSigned(db, by: .passkey(id), sparing: caller.sessionID, now: now)
            try await AuditLog.record(
                db,
                userID: caller.userID,
                type: .passkeyDeleted,
                outcome: .success,
                at: now,
                passkeyID: id,
                sessionID: caller.sessionID
            )
            return true
        }
        guard revoked else { throw Rejection(.notFound, "No such passkey.") }
    }

    private var tooMany: Rejection {
        Rejection(.tooManyRegistrations, "At most \(maxPasskeysPerUser) passkeys per account; remove one first.")
    }

    /// A user's WebAuthn user handle: the bytes of their id, which is random and says nothing
    /// about the person (Level 3 §14.6.1).
    static func userHandle(_ userID: String) -> [UInt8] {
        Array(userID.utf8)
    }

    /// The user a handle names, when it is one of ours.
    static func userID(handle: [UInt8]) -> String? {
        String(validating: handle, as: UTF8.self).flatMap { $0.hasPrefix(IdentifierPrefix.user.rawValue) ? $0 : nil }
    }
}
