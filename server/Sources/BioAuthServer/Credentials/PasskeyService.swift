import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Passkeys: adding one (a registration ceremony, after a strong step-up), listing, renaming and
/// revoking them. The WebAuthn checks themselves are the ceremony core's (``RelyingParty``);
/// this type binds them to storage: the single-use challenge, the credential's owner, the
/// credential id's uniqueness, the audit trail.
struct PasskeyService: Sendable {
    /// The account core every passkey added or revoked goes through.
    let core: AccountCore
    var database: any DatabaseProvider { core.database }
    var time: TimeSource { core.time }
    let relyingParty: RelyingParty
    let stepUp: StepUp
    let challengeTTL: Duration
    let maxPasskeysPerUser: Int
    /// Whether passkeys may be added at all (``ServerPolicies/passkeysAllowed``).
    let passkeysAllowed: Bool

    /// Starts adding a passkey: creation options for the caller, bound to their session, with
    /// their existing passkeys excluded. Needs a recent sign-in, and passkeys allowed.
    func registrationOptions(for caller: Caller) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialCreationOptionsJSON> {
        try requireAllowed()
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
        // Again here: a ceremony opened before a restart under `require` must not finish after it.
        try requireAllowed()
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
        // The ceremony's challenge is spent by any well-formed attempt, whatever comes after.
        let spent = try await database.transaction { db -> Bool in
            guard try await WebAuthnChallengeTable.consume(db, id: request.ceremonyID, ceremony: .registration, now: now) else { return false }
            if case .failure = verdict {
                try await AuditLog.record(
                    db,
                    userID: caller.userID,
                    type: .passkeyRegistered,
                    outcome: .failure,
                    at: now,
                    sessionID: caller.sessionID
                )
            }
            return true
        }
        guard spent else { throw Rejection(.challengeInvalid, "The registration ceremony has expired or was already used; start again.") }
        let registration = try verdict.mapError(Rejection.init).get()
        let id = SecureRandom.identifier(.passkey)
        let stored = try await core.change(.passkeyAdded(id, by: caller)) { db, now in
            // The cap again, where the passkey is stored: ceremonies opened under it may finish together.
            guard try await PasskeyTable.activeCount(db, userID: caller.userID) < maxPasskeysPerUser else { throw tooMany }
            guard try await PasskeyTable.find(db, credentialID: registration.credentialID, anyStatus: true) == nil,
                try await PasskeyTable.insert(
                    db,
                    id: id,
                    userID: caller.userID,
                    registration,
                    label: label,
                    now: now,
                    isUniqueViolation: database.isUniqueViolation
                ),
                let stored = try await PasskeyTable.find(db, id: id, userID: caller.userID)
            else { throw Rejection(.duplicateRegistration, "This passkey is already registered.") }
            return stored
        }.result
        return Passkey(stored)
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
        try await core.change(.passkeyRevoked(id, by: caller))
    }

    /// Refuses when passkeys may not be added: under `--key-attestation require`, nothing would
    /// vouch for the passkey's hardware, so a stolen session could add its own.
    private func requireAllowed() throws {
        guard passkeysAllowed else {
            throw Rejection(
                .attestationRequired,
                "This server adds only keys whose secure hardware it can verify, and a passkey's it cannot; use the app instead."
            )
        }
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
