import BioAuthAttestation
import BioAuthProtocol
import Foundation

/// A device key's hardware evidence, judged under the operator's ``KeyAttestationPolicy``: the
/// challenge a key is made with, and the verdict a registration records.
///
/// A registration's start calls ``examine(_:kind:key:publicKeyBytes:for:)`` before its transaction
/// (the signatures and chains are checked there) and ``commit(_:for:in:now:)`` inside it, where the
/// challenge is spent and an App Attest key's counter moves, so both happen with the insert or not at all.
struct KeyAttestationService: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource
    let policy: KeyAttestationPolicy
    let relyingPartyID: String
    let challengeTTL: Duration
    /// Unspent challenges a session may hold at once: per session, so that another session (a
    /// stale one, a PIN one) cannot hold the owner's enrollment up.
    static let liveChallengesPerSession = 10

    /// What a registration may go on with.
    struct Examination: Sendable {
        /// What to record; nil when the server does not look at evidence.
        var result: KeyAttestationResult?
        /// The challenge to spend, when evidence came.
        var challenge: Data?
        /// The App Attest state to keep, when the evidence verified.
        var appAttest: AppAttestKeyChange?
        /// The evidence as the client sent it (JSON), kept with the registration when its format
        /// is one this server reads.
        var evidence: Data?
    }

    /// A new challenge to make a device key with, and the mode. Under `none` nothing is kept:
    /// evidence is not looked at, so the challenge is never spent.
    func issueChallenge(for caller: Caller) async throws -> AttestationChallengeResponse {
        let now = time.now()
        let challenge = Data(SecureRandom.bytes(ProtocolLimits.challengeByteCount))
        let expiresAt = now.addingTimeInterval(challengeTTL.timeInterval)
        let mode = AttestationChallengeResponse.Mode(rawValue: policy.mode.rawValue)
        guard mode != .none else { return AttestationChallengeResponse(challenge: challenge, expiresAt: expiresAt, mode: mode) }
        try await database.transaction { db in
            try await UserTable.lock(db, id: caller.userID)
            guard
                try await AttestationChallengeTable.live(db, userID: caller.userID, sessionID: caller.sessionID, now: now)
                    < Self.liveChallengesPerSession
            else {
                throw Rejection(
                    .rateLimited,
                    "At most \(Self.liveChallengesPerSession) attestation challenges at once per session; use one or let them expire.",
                    retryAfterSeconds: Int(challengeTTL.timeInterval)
                )
            }
            try await AttestationChallengeTable.insert(
                db,
                challenge: challenge,
                userID: caller.userID,
                sessionID: caller.sessionID,
                now: now,
                expiresAt: expiresAt
            )
        }
        return AttestationChallengeResponse(challenge: challenge, expiresAt: expiresAt, mode: mode)
    }

    /// Verifies `evidence` for a `kind` key (`publicKeyBytes` as the request sent them). Under
    /// `require`, missing or refused evidence throws; under `prefer` it is recorded as such, and
    /// a refusal is in the user's activity.
    func examine(
        _ evidence: KeyAttestationEvidence?,
        kind: RegistrationKind,
        key: DevicePublicKey,
        publicKeyBytes: Data,
        for caller: Caller
    ) async throws -> Examination {
        guard policy.mode != .none else { return Examination() }
        guard let evidence else {
            if policy.mode == .require {
                throw Rejection(.attestationRequired, "This server registers device keys only with hardware evidence (key_attestation).")
            }
            return Examination(result: KeyAttestationResult(format: nil, verdict: .absent))
        }
        // The stored App Attest key an assertion is checked against (a read; the verdict is not).
        var known: AppAttestKey?
        if evidence.assertion != nil, let keyID = evidence.keyID {
            known = try await database.read { db in try await AppAttestKeyTable.find(db, keyID: Array(keyID.data)) }
        }
        do {
            let verdict = try await policy.verify(
                evidence,
                kind: kind,
                key: key,
                publicKeyBytes: publicKeyBytes,
                relyingPartyID: relyingPartyID,
                knownAppAttestKey: known,
                now: time.now()
            )
            return Examination(
                result: verdict.result,
                challenge: evidence.challenge.data,
                appAttest: verdict.appAttest,
                evidence: Self.kept(evidence)
            )
        } catch {
            // A refused start spends its challenge, as a registered key does: refusals cannot pile
            // up against the session's quota, nor a challenge be tried again.
            try await database.transaction { db in
                _ = try await AttestationChallengeTable.consume(
                    db,
                    challenge: evidence.challenge.data,
                    userID: caller.userID,
                    sessionID: caller.sessionID,
                    now: time.now()
                )
                // Counted, as other failures are: refusals cannot flood the trail.
                try await AuditLog.count(db, .user(caller.userID), type: .keyAttestationRefused, outcome: .failure, at: time.now())
            }
            if policy.mode == .require { throw Self.rejection(error) }
            // Only a format this server reads is recorded: the text is the client's.
            let format = KeyAttestationEvidence.Format(rawValue: evidence.format)?.rawValue
            // Only the verdict of refused evidence is kept, not the evidence: a refusal costs no storage.
            return Examination(
                result: KeyAttestationResult(format: format, verdict: .refused, reason: error.reason.rawValue),
                challenge: evidence.challenge.data
            )
        }
    }

    /// Spends the examined evidence's challenge and keeps its App Attest state, inside the
    /// registration's transaction; returns what the registration records.
    func commit(_ examination: Examination, for caller: Caller, in db: any StatementDatabase, now: Date) async throws -> KeyAttestationResult? {
        guard var result = examination.result, let challenge = examination.challenge else { return examination.result }
        var failure: AttestationFailure?
        if try await !AttestationChallengeTable.consume(db, challenge: challenge, userID: caller.userID, sessionID: caller.sessionID, now: now) {
            failure = AttestationFailure(.challengeMismatch, "the attestation challenge is unknown, expired, used or another session's")
        } else if case .asserted(let key, let previous) = examination.appAttest,
            try await !AppAttestKeyTable.advance(db, keyID: key.keyID, from: previous, to: key.counter)
        {
            failure = AttestationFailure(.assertionInvalid, "another assertion of this App Attest key was used meanwhile")
        } else if case .attested(let key) = examination.appAttest {
            _ = try await AppAttestKeyTable.insert(db, key, now: now)
        }
        if let failure, result.verdict == .verified {
            if policy.mode == .require { throw Self.rejection(failure) }
            result = KeyAttestationResult(format: result.format, verdict: .refused, reason: failure.reason.rawValue)
        }
        return result
    }

    /// Under `require`, a registration kept with App Attest evidence must send `assertion`, an
    /// assertion by that App Attest key over `clientDataHash`: it is verified
    /// (``AppAttestVerifier/verifyAssertion(_:clientDataHash:key:)``) and the key's counter
    /// advanced, or the answer is `403 app_attest_assertion_invalid`. Returns whether one was
    /// checked (none is asked of other keys, or under another mode).
    func checkAssertion(registrationID: String, clientDataHash: Data, assertion: Data?) async throws -> Bool {
        guard policy.mode == .require else { return false }
        let evidence = try await database.read { db in try await RegistrationTable.evidence(db, id: registrationID) }
        guard let evidence, let kept = try? WireJSON.makeDecoder().decode(KeyAttestationEvidence.self, from: evidence),
            kept.format == KeyAttestationEvidence.Format.appleAppAttest.rawValue, let keyID = kept.keyID
        else { return false }
        let refusal = Rejection(.appAttestAssertionInvalid, "An approval by this key needs a valid App Attest assertion over its message.")
        guard let assertion, let verifier = policy.appAttest,
            let key = try await database.read({ db in try await AppAttestKeyTable.find(db, keyID: Array(keyID.data)) })
        else { throw refusal }
        let asserted: AppAttestKey
        do {
            asserted = try verifier.verifyAssertion(Array(assertion), clientDataHash: Array(clientDataHash), key: key)
        } catch {
            throw refusal
        }
        let advanced = try await database.transaction { db in
            try await AppAttestKeyTable.advance(db, keyID: key.keyID, from: key.counter, to: asserted.counter)
        }
        guard advanced else { throw refusal }  // another assertion of the key was used meanwhile
        return true
    }

    /// The evidence to keep: its JSON, when its format is one this server reads and it is at most
    /// ``keptEvidenceLimit`` bytes.
    private static func kept(_ evidence: KeyAttestationEvidence) -> Data? {
        guard KeyAttestationEvidence.Format(rawValue: evidence.format) != nil,
            let encoded = try? WireJSON.makeEncoder().encode(evidence), encoded.count <= keptEvidenceLimit
        else { return nil }
        return encoded
    }

    /// The most evidence kept with a registration, in bytes of JSON: a real device's chain or App
    /// Attest object is a few KiB; more is not kept (its verdict is).
    static let keptEvidenceLimit = 16 * 1024

    /// The contract's answer to refused evidence: its reason's code, and the detail.
    private static func rejection(_ failure: AttestationFailure) -> Rejection {
        Rejection(.attestationRefused, "The key's hardware evidence was refused: \(failure.description).", reason: failure.reason.rawValue)
    }
}
