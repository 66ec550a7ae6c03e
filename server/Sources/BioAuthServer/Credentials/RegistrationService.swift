import BioAuthProtocol
import Foundation

/// Registering device keys, biometric or PIN: start (a pending key and its registration
/// challenge) → the key signs the challenge → verify (active); listing and revoking them.
///
/// Starting a registration turns a session into a lasting credential, so it needs a recent
/// strong authentication (``StepUp``).
struct RegistrationService: Sendable {
    /// The account core every registration's change goes through.
    let core: AccountCore
    var database: any DatabaseProvider { core.database }
    var time: TimeSource { core.time }
    let stepUp: StepUp
    let relyingPartyID: String
    let challengeTTL: Duration
    let maxRegistrationsPerUser: Int
    let maxPendingRegistrationsPerUser: Int
    /// The keys' hardware evidence, judged as the operator's policy says.
    let attestations: KeyAttestationService

    /// A key to register, checked.
    struct NewKey: Sendable {
        var kind: RegistrationKind
        var key: DevicePublicKey
        var label: String
        /// The keyed PIN hash, for a PIN key.
        var pinHash: String?
        /// The public key as the request sent it (App Attest's client data binds these bytes).
        var publicKeyBytes: Data
        /// The key's hardware evidence, if the app sent any.
        var evidence: KeyAttestationEvidence?
    }

    /// Checks the algorithm, key and label of a registration request.
    static func newKey(
        kind: RegistrationKind,
        algorithm name: String,
        publicKey: Base64URLBytes,
        label: String?,
        evidence: KeyAttestationEvidence?
    ) throws -> NewKey {
        guard let algorithm = SignatureAlgorithm(rawValue: name) else {
            throw Rejection(.unsupportedAlgorithm, "algorithm must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(algorithm: algorithm, bytes: publicKey.data)
        } catch .unrecognisedEncoding {
            throw Rejection(.invalidPublicKey, "public_key is not a \(algorithm.rawValue) key in an accepted encoding.")
        } catch {
            throw Rejection(.invalidPublicKey, "public_key is not a valid \(algorithm.rawValue) key.")
        }
        return NewKey(kind: kind, key: key, label: try CredentialRules.label(label ?? ""), publicKeyBytes: publicKey.data, evidence: evidence)
    }

    /// Starts registering a biometric key.
    func start(_ request: StartRegistrationRequest, for caller: Caller) async throws -> RegistrationStartResponse {
        let key = try Self.newKey(
            kind: .biometric,
            algorithm: request.algorithm,
            publicKey: request.publicKey,
            label: request.label,
            evidence: request.keyAttestation
        )
        try stepUp.require(caller)
        return try await start(key, for: caller)
    }

    /// Starts a registration: a pending key and its registration challenge. The caller has
    /// checked the key and the step-up; the key's evidence is judged here.
    func start(_ new: NewKey, for caller: Caller) async throws -> RegistrationStartResponse {
        let examination = try await attestations.examine(new.evidence, kind: new.kind, key: new.key, publicKeyBytes: new.publicKeyBytes, for: caller)
        let now = time.now()
        let registrationID = SecureRandom.identifier(.registration)
        let challenge = SecureRandom.bytes(ProtocolLimits.challengeByteCount)
        let expiresAt = now.addingTimeInterval(challengeTTL.timeInterval)
        // The core locks the user's row first, so that concurrent starts on PostgreSQL (READ
        // COMMITTED, several instances) queue before the counts below decide the insert, as SQLite's
        // writers do.
        _ = try await core.change(.deviceKeyStarted(registrationID, kind: new.kind, by: caller)) { db, _ in
            let held = try await RegistrationTable.count(db, userID: caller.userID, pendingOnly: false)
            guard held < maxRegistrationsPerUser else {
                throw Rejection(.tooManyRegistrations, "At most \(maxRegistrationsPerUser) registrations per user; delete one first.")
            }
            // Pending ones stay until verified or deleted, so waiting does not help: 409, not 429.
            let pending = try await RegistrationTable.count(db, userID: caller.userID, pendingOnly: true)
            guard pending < maxPendingRegistrationsPerUser else {
                throw Rejection(
                    .tooManyRegistrations,
                    "At most \(maxPendingRegistrationsPerUser) unverified registrations per user; verify or delete one first."
                )
            }
            guard try await !RegistrationTable.contains(db, publicKey: new.key) else { throw duplicateRegistration }
            let attestation = try await attestations.commit(examination, for: caller, in: db, now: now)
            do {
                try await RegistrationTable.insertPending(
                    db,
                    id: registrationID,
                    userID: caller.userID,
                    kind: new.kind,
                    key: new.key,
                    label: new.label,
                    pinHash: new.pinHash,
                    attestation: attestation,
                    evidence: examination.evidence,
                    now: now
                )
            } catch  where database.isUniqueViolation(error) {
                // Another instance inserted the same key between our check and this insert.
                throw duplicateRegistration
            }
            try await ChallengeTable.insert(
                db,
                registrationID: registrationID,
                ceremony: .registration,
                bytes: challenge,
                now: now,
                expiresAt: expiresAt
            )
        }
        return RegistrationStartResponse(registrationID: registrationID, challenge: challenge, expiresAt: expiresAt)
    }

    /// Completes a registration: the key proves possession by signing the registration message.
    /// A verified PIN key replaces the user's previous PIN key (its sessions end, but the caller's).
    func verify(id registrationID: String, _ request: VerifyRegistrationRequest, for caller: Caller) async throws -> Registration {
        guard
            let stored = try await database.read({ db in
                try await RegistrationTable.find(db, id: registrationID, userID: caller.userID)
            })
        else {
            throw Rejection(.registrationNotFound, "No such registration.")
        }
        let signature = try SignatureRules.parse(request.signature, for: stored.algorithm)
        let change = CredentialChange.deviceKeyAdded(registrationID, kind: stored.wire.kind, by: caller)

        let now = time.now()
        let consumed = try await database.withDatabase { db in
            try await ChallengeTable.consume(db, registrationID: registrationID, ceremony: .registration, now: now)
        }
        guard let challenge = consumed else {
            throw Rejection(.challengeInvalid, "The registration challenge is unknown, expired or already used.")
        }
        let message = try SignatureRules.message(.registration, relyingPartyID: relyingPartyID, registrationID: registrationID, challenge: challenge)
        guard stored.publicKey.isValidSignature(signature, for: message) else {
            try await database.withDatabase { db in
                // The change's own event, as a failure.
                for event in change.events {
                    try await AuditLog.record(db, userID: caller.userID, type: event, outcome: .failure, at: now, registrationID: registrationID)
                }
            }
            throw SignatureRules.invalid
        }
        return try await core.change(change) { db, _ in
            guard try await RegistrationTable.activate(db, id: registrationID),
                let registration = try await RegistrationTable.find(db, id: registrationID, userID: caller.userID)
            else {
                throw Rejection(.registrationNotFound, "The registration was deleted meanwhile.")
            }
            return registration.wire
        }.result
    }

    /// The caller's pending and active registrations, newest first.
    func registrations(of caller: Caller) async throws -> [Registration] {
        try await database.read { db in
            try await RegistrationTable.all(db, userID: caller.userID).map(\.wire)
        }
    }

    /// Renames one of the caller's registrations.
    func rename(id registrationID: String, to label: String, for caller: Caller) async throws -> Registration {
        let label = try CredentialRules.label(label)
        let now = time.now()
        let renamed = try await database.transaction { db -> Registration? in
            guard try await RegistrationTable.rename(db, id: registrationID, userID: caller.userID, label: label) else { return nil }
            try await AuditLog.record(
                db,
                userID: caller.userID,
                type: .registrationRenamed,
                outcome: .success,
                at: now,
                registrationID: registrationID,
                sessionID: caller.sessionID
            )
            return try await RegistrationTable.find(db, id: registrationID, userID: caller.userID)?.wire
        }
        guard let renamed else { throw Rejection(.registrationNotFound, "No such registration.") }
        return renamed
    }

    /// Revokes one of the caller's registrations: its challenges go, and every session it signed
    /// in ends except the caller's own (turning biometric sign-in off, or on again, from a session
    /// the key signed in does not sign the user out).
    func delete(id registrationID: String, for caller: Caller) async throws {
        try await core.change(.deviceKeyRevoked(registrationID, by: caller))
    }

    private var duplicateRegistration: Rejection {
        Rejection(.duplicateRegistration, "This public key is already registered; create a new key for each registration.")
    }
}

extension RegistrationService {
    /// Device-key registrations through `core` with `configuration`'s relying party, challenge
    /// lifetime and per-user limits.
    init(configuration: ServerConfiguration, core: AccountCore, stepUp: StepUp, attestations: KeyAttestationService) {
        self.init(
            core: core,
            stepUp: stepUp,
            relyingPartyID: configuration.relyingPartyID,
            challengeTTL: configuration.challengeTTL,
            maxRegistrationsPerUser: configuration.maxRegistrationsPerUser,
            maxPendingRegistrationsPerUser: configuration.maxPendingRegistrationsPerUser,
            attestations: attestations
        )
    }
}
