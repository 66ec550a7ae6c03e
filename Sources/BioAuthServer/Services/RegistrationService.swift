import BioAuthProtocol
import Foundation
import SQLKit

/// Registering device keys, biometric or PIN: start (a pending key and its registration
/// challenge) → the key signs the challenge → verify (active); listing and revoking them.
///
/// Starting a registration turns a session into a lasting credential, so it needs a recent
/// primary authentication (``StepUp``).
struct RegistrationService: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource
    let stepUp: StepUp
    let relyingPartyID: String
    let challengeTTL: Duration
    let maxRegistrationsPerUser: Int
    let maxPendingRegistrationsPerUser: Int

    /// A key to register, checked.
    struct NewKey: Sendable {
        var kind: RegistrationKind
        var key: DevicePublicKey
        var label: String
        /// The keyed PIN hash, for a PIN key.
        var pinHash: String?
    }

    /// Checks the algorithm, key and label of a registration request.
    static func newKey(kind: RegistrationKind, algorithm name: String, publicKey: Base64URLBytes, label: String?) throws -> NewKey {
        guard let algorithm = SignatureAlgorithm(rawValue: name) else {
            throw APIError(.unsupportedAlgorithm, "algorithm must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(algorithm: algorithm, bytes: publicKey.data)
        } catch .unrecognisedEncoding {
            throw APIError(.invalidPublicKey, "public_key is not a \(algorithm.rawValue) key in an accepted encoding.")
        } catch {
            throw APIError(.invalidPublicKey, "public_key is not a valid \(algorithm.rawValue) key.")
        }
        let label = label ?? ""
        guard ProtocolLimits.labelLength.contains(label.unicodeScalars.count) else {
            throw APIError(.invalidRequest, "label is at most \(ProtocolLimits.labelLength.upperBound) characters.")
        }
        return NewKey(kind: kind, key: key, label: label)
    }

    /// Starts registering a biometric key.
    func start(_ request: StartRegistrationRequest, for caller: Caller) async throws -> RegistrationStartResponse {
        let key = try Self.newKey(kind: .biometric, algorithm: request.algorithm, publicKey: request.publicKey, label: request.label)
        try stepUp.require(caller)
        return try await start(key, for: caller)
    }

    /// Starts a registration: a pending key and its registration challenge. The caller has
    /// checked the key and the step-up.
    func start(_ new: NewKey, for caller: Caller) async throws -> RegistrationStartResponse {
        let now = time.now()
        let registrationID = SecureRandom.identifier(.registration)
        let challenge = SecureRandom.bytes(ProtocolLimits.challengeByteCount)
        let expiresAt = now.addingTimeInterval(challengeTTL.timeInterval)
        try await database.transaction { db in
            // The counts below decide the insert: lock the user's row so that concurrent starts on
            // PostgreSQL (READ COMMITTED, several instances) queue here, as SQLite's writers do.
            try await db.raw("UPDATE users SET id = id WHERE id = \(bind: caller.userID)").run()
            let held = try await db.raw("""
                SELECT COUNT(*) AS held FROM registrations
                WHERE user_id = \(bind: caller.userID) AND status IN ('pending', 'active')
                """).first()?.decode(column: "held", as: Int.self) ?? 0
            guard held < maxRegistrationsPerUser else {
                throw APIError(.tooManyRegistrations, "At most \(maxRegistrationsPerUser) registrations per user; delete one first.")
            }
            // Pending ones stay until verified or deleted, so waiting does not help: 409, not 429.
            let pending = try await db.raw("""
                SELECT COUNT(*) AS pending FROM registrations WHERE user_id = \(bind: caller.userID) AND status = 'pending'
                """).first()?.decode(column: "pending", as: Int.self) ?? 0
            guard pending < maxPendingRegistrationsPerUser else {
                throw APIError(.tooManyRegistrations, "At most \(maxPendingRegistrationsPerUser) unverified registrations per user; verify or delete one first.")
            }
            let known = try await db.raw("SELECT 1 AS known FROM registrations WHERE public_key = \(bind: new.key.canonicalBytes)").first() != nil
            guard !known else { throw duplicateRegistration }
            do {
                try await db.raw("""
                    INSERT INTO registrations (id, user_id, kind, algorithm, public_key, label, status, created_at, pin_hash)
                    VALUES (\(bind: registrationID), \(bind: caller.userID), \(bind: new.kind.rawValue), \(bind: new.key.algorithm.rawValue),
                            \(bind: new.key.canonicalBytes), \(bind: new.label), 'pending', \(bind: now.millisecondsSince1970), \(bind: new.pinHash))
                    """).run()
            } catch where database.isUniqueViolation(error) {
                // Another instance inserted the same key between our check and this insert.
                throw duplicateRegistration
            }
            try await ChallengeStore.insert(db, registrationID: registrationID, ceremony: .registration, bytes: challenge, now: now, expiresAt: expiresAt)
            if new.kind == .biometric {
                try await AuditLog.record(db, userID: caller.userID, type: .registrationStarted, outcome: .success, at: now, registrationID: registrationID)
            }
        }
        return RegistrationStartResponse(registrationID: registrationID, challenge: challenge, expiresAt: expiresAt)
    }

    /// Completes a registration: the key proves possession by signing the registration message.
    /// A verified PIN key replaces the user's previous PIN key (its sessions end, but the caller's).
    func verify(id registrationID: String, _ request: VerifyRegistrationRequest, for caller: Caller) async throws -> Registration {
        guard let stored = try await database.withDatabase({ db in
            try await StoredRegistration.find(db, id: registrationID, userID: caller.userID)
        }) else {
            throw APIError(.registrationNotFound, "No such registration.")
        }
        let signature = try SignatureRules.parse(request.signature, for: stored.algorithm)
        let event: AuditEvent.Kind = stored.wire.kind == .pin ? .pinSet : .registrationVerified

        let now = time.now()
        let consumed = try await database.withDatabase { db in
            try await ChallengeStore.consume(db, registrationID: registrationID, ceremony: .registration, now: now)
        }
        guard let challenge = consumed else {
            throw APIError(.challengeInvalid, "The registration challenge is unknown, expired or already used.")
        }
        let message = try SignatureRules.message(.registration, relyingPartyID: relyingPartyID, registrationID: registrationID, challenge: challenge)
        guard stored.publicKey.isValidSignature(signature, for: message) else {
            try await database.withDatabase { db in
                try await AuditLog.record(db, userID: caller.userID, type: event, outcome: .failure, at: now, registrationID: registrationID)
            }
            throw SignatureRules.invalid
        }
        return try await database.transaction { db in
            let activated = try await db.raw("""
                UPDATE registrations SET status = 'active'
                WHERE id = \(bind: registrationID) AND status = 'pending' RETURNING id
                """).all()
            guard !activated.isEmpty, let registration = try await StoredRegistration.find(db, id: registrationID, userID: caller.userID) else {
                throw APIError(.registrationNotFound, "The registration was deleted meanwhile.")
            }
            if stored.wire.kind == .pin {
                // One PIN per account: it lives on the device that set it last.
                let previous = try await db.raw("""
                    SELECT id FROM registrations
                    WHERE user_id = \(bind: caller.userID) AND kind = 'pin' AND status IN ('pending', 'active') AND id <> \(bind: registrationID)
                    """).all().map { try $0.decode(column: "id", as: String.self) }
                for id in previous {
                    try await Self.revoke(db, registrationID: id, sparing: caller.sessionID, now: now)
                }
                let key = try await db.raw("SELECT username_key FROM users WHERE id = \(bind: caller.userID)").first()?
                    .decode(column: "username_key", as: String.self)
                if let key { try await FactorLockout.clear(db, usernameKey: key, factor: .pin) }
            }
            try await AuditLog.record(db, userID: caller.userID, type: event, outcome: .success, at: now, registrationID: registrationID)
            return registration.wire
        }
    }

    /// The caller's pending and active registrations, newest first.
    func registrations(of caller: Caller) async throws -> [Registration] {
        try await database.withDatabase { db in
            try await StoredRegistration.all(db, userID: caller.userID).map(\.wire)
        }
    }

    /// Revokes one of the caller's registrations: its challenges go, and every session it signed
    /// in ends except the caller's own (turning biometric sign-in off, or on again, from a session
    /// the key signed in does not sign the user out).
    func delete(id registrationID: String, for caller: Caller) async throws {
        let now = time.now()
        let deleted = try await database.transaction { db -> Bool in
            let owned = try await db.raw("""
                SELECT 1 AS owned FROM registrations
                WHERE id = \(bind: registrationID) AND user_id = \(bind: caller.userID) AND status IN ('pending', 'active')
                """).first()
            guard owned != nil else { return false }
            try await Self.revoke(db, registrationID: registrationID, sparing: caller.sessionID, now: now)
            try await AuditLog.record(db, userID: caller.userID, type: .registrationDeleted, outcome: .success, at: now, registrationID: registrationID)
            return true
        }
        guard deleted else { throw APIError(.registrationNotFound, "No such registration.") }
    }

    /// Revokes a registration inside the caller's transaction: status, challenges, and the sessions
    /// it signed in (all of them, or all but `sparing`).
    static func revoke(_ db: any SQLDatabase, registrationID: String, sparing sessionID: String?, now: Date) async throws {
        try await db.raw("""
            UPDATE registrations SET status = 'revoked', revoked_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: registrationID) AND status IN ('pending', 'active')
            """).run()
        try await db.raw("DELETE FROM challenges WHERE registration_id = \(bind: registrationID)").run()
        try await db.raw("""
            UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
            WHERE registration_id = \(bind: registrationID) AND revoked_at IS NULL AND id <> \(bind: sessionID ?? "")
            """).run()
    }

    private var duplicateRegistration: APIError {
        APIError(.duplicateRegistration, "This public key is already registered; create a new key for each registration.")
    }
}
