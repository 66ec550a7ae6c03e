import BioAuthProtocol
import Foundation
import SQLKit

/// The biometric key ceremonies: registering a device key and signing in with it.
///
/// The server trusts only signatures: a registration becomes active when its key signs the
/// registration challenge, and a biometric session exists only when a registered key signs a
/// fresh authentication challenge. Each challenge is 32 random bytes, bound to one ceremony and
/// one registration, expires after the configured TTL, and is deleted by the first well-formed
/// completion attempt whatever its outcome (one atomic `DELETE … RETURNING`, so of any number of
/// concurrent attempts exactly one gets it).
struct BiometricService: Sendable {
    let database: any DatabaseProvider
    let sessions: SessionService
    let time: TimeSource
    let relyingPartyID: String
    let challengeTTL: Duration
    let maxRegistrationsPerUser: Int
    let maxPendingRegistrationsPerUser: Int
    let challengesPerRegistrationPerMinute: Int

    // MARK: Registration

    /// Starts a registration: a pending key and its registration challenge.
    func startRegistration(_ request: StartRegistrationRequest, for caller: Caller) async throws -> RegistrationStartResponse {
        guard let algorithm = SignatureAlgorithm(rawValue: request.algorithm) else {
            throw APIError(.unsupportedAlgorithm, "algorithm must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(algorithm: algorithm, bytes: request.publicKey.data)
        } catch .unrecognisedEncoding {
            throw APIError(.invalidPublicKey, "public_key is not a \(algorithm.rawValue) key in an accepted encoding.")
        } catch {
            throw APIError(.invalidPublicKey, "public_key is not a valid \(algorithm.rawValue) key.")
        }
        let label = request.label ?? ""
        guard ProtocolLimits.labelLength.contains(label.unicodeScalars.count) else {
            throw APIError(.invalidRequest, "label is at most \(ProtocolLimits.labelLength.upperBound) characters.")
        }

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
            let known = try await db.raw("SELECT 1 AS known FROM registrations WHERE public_key = \(bind: key.canonicalBytes)").first() != nil
            guard !known else { throw duplicateRegistration }
            do {
                try await db.raw("""
                    INSERT INTO registrations (id, user_id, algorithm, public_key, label, status, created_at)
                    VALUES (\(bind: registrationID), \(bind: caller.userID), \(bind: algorithm.rawValue), \(bind: key.canonicalBytes),
                            \(bind: label), 'pending', \(bind: now.millisecondsSince1970))
                    """).run()
            } catch where database.isUniqueViolation(error) {
                // Another instance (PostgreSQL, issue 5) inserted the same key between our check and this insert.
                throw duplicateRegistration
            }
            try await Self.insertChallenge(db, registrationID: registrationID, ceremony: .registration, bytes: challenge, now: now, expiresAt: expiresAt)
            try await AuditLog.record(db, userID: caller.userID, type: .registrationStarted, outcome: .success, at: now, registrationID: registrationID)
        }
        return RegistrationStartResponse(registrationID: registrationID, challenge: challenge, expiresAt: expiresAt)
    }

    /// Completes a registration: the key proves possession by signing the registration message.
    func verifyRegistration(id registrationID: String, _ request: VerifyRegistrationRequest, for caller: Caller) async throws -> Registration {
        guard let stored = try await database.withDatabase({ db in
            try await StoredRegistration.find(db, id: registrationID, userID: caller.userID)
        }) else {
            throw APIError(.registrationNotFound, "No such registration.")
        }
        let signature = try parseSignature(request.signature, for: stored.algorithm)

        let now = time.now()
        let consumed = try await database.withDatabase { db in
            try await Self.consumeChallenge(db, registrationID: registrationID, ceremony: .registration, now: now)
        }
        guard let challenge = consumed else {
            throw APIError(.challengeInvalid, "The registration challenge is unknown, expired or already used.")
        }
        let message = try signedMessage(.registration, registrationID: registrationID, challenge: challenge)
        guard stored.publicKey.isValidSignature(signature, for: message) else {
            try await database.withDatabase { db in
                try await AuditLog.record(db, userID: caller.userID, type: .registrationVerified, outcome: .failure, at: now, registrationID: registrationID)
            }
            throw APIError(.signatureInvalid, "The signature does not verify with the registered key.")
        }
        return try await database.transaction { db in
            let activated = try await db.raw("""
                UPDATE registrations SET status = 'active'
                WHERE id = \(bind: registrationID) AND status = 'pending' RETURNING id
                """).all()
            guard !activated.isEmpty, let registration = try await StoredRegistration.find(db, id: registrationID, userID: caller.userID) else {
                throw APIError(.registrationNotFound, "The registration was deleted meanwhile.")
            }
            try await AuditLog.record(db, userID: caller.userID, type: .registrationVerified, outcome: .success, at: now, registrationID: registrationID)
            return registration.wire
        }
    }

    /// The caller's pending and active registrations, newest first.
    func registrations(of caller: Caller) async throws -> [Registration] {
        try await database.withDatabase { db in
            try await StoredRegistration.all(db, userID: caller.userID).map(\.wire)
        }
    }

    /// Revokes a registration: its challenges go, and every session it signed in ends.
    func deleteRegistration(id registrationID: String, for caller: Caller) async throws {
        let now = time.now()
        let deleted = try await database.transaction { db -> Bool in
            let revoked = try await db.raw("""
                UPDATE registrations SET status = 'revoked', revoked_at = \(bind: now.millisecondsSince1970)
                WHERE id = \(bind: registrationID) AND user_id = \(bind: caller.userID) AND status IN ('pending', 'active')
                RETURNING id
                """).all()
            guard !revoked.isEmpty else { return false }
            try await db.raw("DELETE FROM challenges WHERE registration_id = \(bind: registrationID)").run()
            try await db.raw("""
                UPDATE sessions SET revoked_at = \(bind: now.millisecondsSince1970)
                WHERE registration_id = \(bind: registrationID) AND revoked_at IS NULL
                """).run()
            try await AuditLog.record(db, userID: caller.userID, type: .registrationDeleted, outcome: .success, at: now, registrationID: registrationID)
            return true
        }
        guard deleted else { throw APIError(.registrationNotFound, "No such registration.") }
    }

    // MARK: Authentication

    /// Issues an authentication challenge for an active registration.
    func createChallenge(_ request: CreateChallengeRequest) async throws -> ChallengeResponse {
        let now = time.now()
        let challengeID = SecureRandom.identifier(.challenge)
        let challenge = SecureRandom.bytes(ProtocolLimits.challengeByteCount)
        let expiresAt = now.addingTimeInterval(challengeTTL.timeInterval)
        // A challenge lost in a crash costs the device one more request; not waiting for the disk
        // here halves the fsyncs of a sign-in (the completion's commit is durable, and makes
        // this one durable too).
        let issued = try await database.transactionWithoutWaitingForDisk { db -> Bool in
            let active = try await db.raw("""
                SELECT 1 AS active FROM registrations WHERE id = \(bind: request.registrationID) AND status = 'active'
                """).first() != nil
            guard active else { return false }
            let window = try await RateWindow.hit(db, key: "challenges:\(request.registrationID)", now: now)
            guard window.hits <= challengesPerRegistrationPerMinute else {
                throw APIError(.rateLimited, "At most \(challengesPerRegistrationPerMinute) challenges per registration a minute.",
                               retryAfterSeconds: window.retryAfterSeconds)
            }
            try await Self.insertChallenge(db, id: challengeID, registrationID: request.registrationID, ceremony: .authentication,
                                           bytes: challenge, now: now, expiresAt: expiresAt)
            return true
        }
        guard issued else { throw APIError(.registrationNotFound, "No active registration with that id.") }
        return ChallengeResponse(challengeID: challengeID, challenge: challenge, expiresAt: expiresAt)
    }

    /// Signs in with a signature over a fresh authentication challenge.
    ///
    /// The signature is checked against the challenge as read, then one transaction consumes the
    /// challenge and, if the signature held, creates the session: one durable commit per
    /// completion. Consuming decides: of concurrent attempts, only the one whose `DELETE` returns
    /// the row goes on, whatever the others verified.
    func signIn(_ request: BiometricSignInRequest) async throws -> SignInResponse {
        let attempt = try await attempt(request)
        return try await complete(attempt.completion, signatureIsValid: attempt.signatureIsValid)
    }

    /// A completion attempt read and parsed, not yet verified or committed.
    struct SignInAttempt: Sendable {
        var completion: SignInCompletion
        var key: DevicePublicKey
        var signature: DeviceSignature
        var message: Data

        /// Whether the device key signed this challenge's message.
        var signatureIsValid: Bool { key.isValidSignature(signature, for: message) }
    }

    /// What the completion transaction needs to know.
    struct SignInCompletion: Sendable {
        var challengeID: String
        var registrationID: String
        var userID: String
        var minutes: Int
    }

    /// Reads the challenge and its registration and parses the signature. This reads only: a
    /// malformed signature is bad input and changes nothing.
    func attempt(_ request: BiometricSignInRequest) async throws -> SignInAttempt {
        let minutes = try sessions.duration(requested: request.sessionDurationMinutes)
        guard let pending = try await database.withDatabase({ db in
            try await db.raw("""
                SELECT c.registration_id AS registration_id, c.challenge AS challenge,
                       r.user_id AS user_id, r.algorithm AS algorithm, r.public_key AS public_key
                FROM challenges c JOIN registrations r ON r.id = c.registration_id
                WHERE c.id = \(bind: request.challengeID) AND c.ceremony = \(bind: Int(Ceremony.authentication.rawValue))
                """).first()
        }) else {
            throw challengeInvalid
        }
        let registrationID = try pending.decode(column: "registration_id", as: String.self)
        let key = try StoredRegistration.publicKey(from: pending)
        return SignInAttempt(
            completion: SignInCompletion(
                challengeID: request.challengeID, registrationID: registrationID,
                userID: try pending.decode(column: "user_id", as: String.self), minutes: minutes),
            key: key,
            signature: try parseSignature(request.signature, for: key.algorithm),
            message: try signedMessage(.authentication, registrationID: registrationID,
                                       challenge: try pending.decode(column: "challenge", as: Data.self)))
    }

    /// The completion's one transaction: consume the challenge, then record the outcome. The
    /// consumption commits whatever the outcome, so a bad signature still spends the challenge.
    func complete(_ completion: SignInCompletion, signatureIsValid: Bool) async throws -> SignInResponse {
        enum Outcome: Sendable { case signedIn(SignInResponse), challengeInvalid, signatureInvalid }
        let now = time.now()
        let outcome = try await database.transaction { db -> Outcome in
            guard try await Self.consumeChallenge(db, id: completion.challengeID, ceremony: .authentication, now: now) != nil else {
                return .challengeInvalid
            }
            guard signatureIsValid else {
                try await AuditLog.record(db, userID: completion.userID, type: .biometricSignIn, outcome: .failure, at: now,
                                          registrationID: completion.registrationID)
                return .signatureInvalid
            }
            // The registration may have been deleted since the challenge was issued.
            let used = try await db.raw("""
                UPDATE registrations SET last_used_at = \(bind: now.millisecondsSince1970)
                WHERE id = \(bind: completion.registrationID) AND status = 'active' RETURNING id
                """).all()
            guard !used.isEmpty, let user = try await AccountService.user(db, id: completion.userID) else { return .challengeInvalid }
            let issued = try await SessionService.insert(
                db, userID: completion.userID, authentication: .init(method: .biometric, registrationID: completion.registrationID),
                minutes: completion.minutes, now: now)
            try await AuditLog.record(db, userID: completion.userID, type: .biometricSignIn, outcome: .success, at: now,
                                      registrationID: completion.registrationID, sessionID: issued.session.id)
            return .signedIn(SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user))
        }
        switch outcome {
        case .signedIn(let response): return response
        case .challengeInvalid: throw challengeInvalid
        case .signatureInvalid: throw APIError(.signatureInvalid, "The signature does not verify with the registered key.")
        }
    }

    // MARK: Shared steps

    private var duplicateRegistration: APIError {
        APIError(.duplicateRegistration, "This public key is already registered; create a new key for each registration.")
    }

    private var challengeInvalid: APIError {
        APIError(.challengeInvalid, "The challenge is unknown, expired, already used or not for this ceremony.")
    }

    private func parseSignature(_ signature: Base64URLBytes, for algorithm: SignatureAlgorithm) throws -> DeviceSignature {
        do {
            return try DeviceSignature(algorithm: algorithm, bytes: signature.data)
        } catch {
            throw APIError(.invalidSignatureEncoding, "signature is not a well-formed \(algorithm.rawValue) signature: \(error.reason).")
        }
    }

    private func signedMessage(_ ceremony: Ceremony, registrationID: String, challenge: Data) throws -> Data {
        do {
            return try SignedMessage(ceremony: ceremony, relyingPartyID: relyingPartyID, registrationID: registrationID, challenge: challenge).encoded()
        } catch {
            throw APIError(.challengeInvalid, "The challenge cannot be answered.")
        }
    }

    private static func insertChallenge(
        _ db: any SQLDatabase, id: String = SecureRandom.identifier(.challenge), registrationID: String, ceremony: Ceremony,
        bytes: Data, now: Date, expiresAt: Date
    ) async throws {
        try await db.raw("""
            INSERT INTO challenges (id, registration_id, ceremony, challenge, created_at, expires_at)
            VALUES (\(bind: id), \(bind: registrationID), \(bind: Int(ceremony.rawValue)), \(bind: bytes),
                    \(bind: now.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            """).run()
    }

    /// Deletes a challenge and returns its bytes if it had not yet expired. Deleting is the
    /// consumption: of concurrent callers, only one gets the row back.
    private static func consumeChallenge(
        _ db: any SQLDatabase, id: String? = nil, registrationID: String? = nil, ceremony: Ceremony, now: Date
    ) async throws -> Data? {
        var query = SQLQueryString("DELETE FROM challenges WHERE ceremony = \(bind: Int(ceremony.rawValue))")
        if let id { query.appendInterpolation(unsafeRaw: " AND id = "); query.appendInterpolation(bind: id) }
        if let registrationID { query.appendInterpolation(unsafeRaw: " AND registration_id = "); query.appendInterpolation(bind: registrationID) }
        query.appendInterpolation(unsafeRaw: " RETURNING challenge, expires_at")
        let rows = try await db.raw(query).all()
        let now = now.millisecondsSince1970
        for row in rows where try row.decode(column: "expires_at", as: Int64.self) > now {
            return try row.decode(column: "challenge", as: Data.self)
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds, as Foundation measures time.
    var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
