import BioAuthProtocol
import Foundation

/// The one account core: every sign-in (the password, a one-time password, a biometric key, a
/// PIN, a passkey) and every re-authentication of a session ends here, under the same rules, and
/// every credential change and sign-up goes through it (``change(_:apply:)``,
/// ``createAccount(username:passwordHash:)``).
///
/// A credential type checks its answer (a hash, a signature, an assertion) and hands the core a
/// ``FactorProof``. The core then, in one transaction with the session's insert
/// (``SignInCompletion``): spends the challenge; counts a failure (locking the factor as
/// ``LockoutPolicy`` says); checks the account's state, that is the credential epoch the proof saw
/// (a password change, a recovery or a revocation since then refuses it), a pending password
/// change (only the one-time password signs in; its session is restricted and short) and the
/// credential still being current; clears the factor's failures; and creates the session with the
/// factors that made it (or renews the caller's), with its audit event.
///
/// A secret factor (the password, a PIN) first reserves its attempt
/// (``reserve(_:usernameKey:subject:event:registrationID:spending:)``),
/// so that the lockout bounds the secrets checked however many attempts race.
struct AccountCore: Sendable {
    let database: any DatabaseProvider
    let lockouts: LockoutPolicy
    let sessions: SessionPolicy
    let clock: DatabaseClock
    let time: TimeSource
    let metrics: ServerMetrics

    /// What a proof is for.
    enum Purpose: Sendable {
        /// A new session of `minutes` (already checked with ``SessionPolicy/minutes(requested:)``).
        case signIn(minutes: Int)
        /// Renewing the caller's session (step-up).
        case reauthenticate(Caller)
    }

    /// A proof's result: the session made or renewed, its user, and for a sign-in its token
    /// (shown once).
    struct Completed: Sendable {
        var user: User
        var session: Session
        var token: String?

        /// The sign-in's answer.
        var signInResponse: SignInResponse {
            SignInResponse(sessionToken: token ?? "", session: session, user: user)
        }
    }

    /// Reserves an attempt at a secret factor before the secret is checked: in one transaction,
    /// spends `challenge` (a PIN key's, whose signature verified) and counts the attempt. Throws the
    /// lock when the factor is locked (the challenge is spent all the same).
    func reserve(
        _ factor: LockoutPolicy.Factor,
        usernameKey: String,
        subject: AuditLog.Subject,
        event: AuditEvent.Kind,
        registrationID: String? = nil,
        spending challenge: AuthenticationChallenge? = nil
    ) async throws -> LockoutPolicy.Attempt {
        let now = time.now()
        let lockouts = self.lockouts
        let clock = self.clock
        let verdict = try await database.transaction { db -> LockoutPolicy.Verdict? in
            if let challenge {
                guard try await SpentChallengeTable.spend(db, challenge, now: now.millisecondsSince1970) else { return nil }
            }
            let counter = try await FactorFailureTable.reserve(db, usernameKey: usernameKey, factor: factor, clock: clock)
            let verdict = lockouts.verdict(on: counter, factor: factor, usernameKey: usernameKey)
            if case .attempt = verdict { return verdict }
            try await AuditLog.count(db, subject, type: event, outcome: .locked, at: now, registrationID: registrationID)
            return verdict
        }
        switch verdict {
        case nil:
            throw SignatureRules.unknownChallenge
        case .attempt(let attempt)?:
            return attempt
        case .locked(let seconds)?:
            metrics.lockedAttempt(factor)
            throw Rejection(.locked, "Too many failed attempts; try again later.", retryAfterSeconds: seconds)
        case .lockedUntilPasswordSignIn?:
            metrics.lockedAttempt(factor)
            throw Rejection(.pinLocked, "The PIN was locked too often; sign in with the password to unlock it.")
        case .lockedUntilUnlocked?:
            metrics.lockedAttempt(factor)
            throw Rejection(.passwordLocked, "The password failed too many times in a row; the support desk can unlock it.")
        }
    }

    /// Completes `proof` for `purpose`: a session, or the refusal the proof's verdict earns.
    func complete(_ proof: some FactorProof, for purpose: Purpose) async throws -> Completed {
        let now = time.now()
        var token: SessionToken?
        let target: SignInCompletion.Purpose
        let event: AuditEvent.Kind
        switch purpose {
        case .signIn(let minutes):
            let issued = NewSession.make(
                userID: proof.userID ?? "",
                authentication: .init(method: proof.factor, registrationID: proof.credential.registrationID, passkeyID: proof.credential.passkeyID),
                minutes: minutes,
                now: now,
                stepUpAt: proof.stepsUp ? now : nil
            )
            token = issued.token
            target = .newSession(issued.session, tokenDigest: issued.token.digest)
            event = proof.signInEvent
        case .reauthenticate(let caller):
            // Only the caller's own credential renews the session; another's fails (and is counted) below.
            guard proof.userID == caller.userID || !proof.holds else { throw proof.challengeSpent }
            target = .renew(sessionID: caller.sessionID)
            event = .sessionReauthenticated
        }
        let (user, session) = try await finish(proof, target: target, event: event, now: now)
        guard let session else { throw Rejection(.internalError, "The completion made no session.") }  // a session's purpose always makes one
        return Completed(user: user, session: session, token: token?.text)
    }

    /// Approves a confirmation with `proof` at `now` (the time its receipt states), without a
    /// session, under every rule of ``complete(_:for:)``: the challenge is spent, a failure counted
    /// (against the confirmation too: the fifth in a row blocks it), the account's state and the
    /// credential checked, its use recorded; then, in the same transaction, the confirmation
    /// becomes approved with the proof's factor and credential and `approval`'s receipt, once, if it
    /// is the account's and still pending, unexpired and not blocked (else `409
    /// confirmation_closed`), with the audit event `confirmation.approved`. Returns the account's user.
    func record(_ proof: some FactorProof, approving approval: SignInCompletion.ConfirmationApproval, now: Date) async throws -> User {
        try await finish(proof, target: .record(approval), event: .confirmationApproved, now: now).user
    }

    /// Runs `proof`'s completion for `target` in one transaction (``SignInCompletion``), and turns
    /// its verdict into the user and session, or the refusal the proof earns.
    private func finish(
        _ proof: some FactorProof,
        target: SignInCompletion.Purpose,
        event: AuditEvent.Kind,
        now: Date
    ) async throws -> (user: User, session: Session?) {
        if case .authentication(let challenge) = proof.challenge, challenge.expiresAt <= now.millisecondsSince1970 {
            throw proof.challengeSpent
        }
        let completion = SignInCompletion(
            now: now,
            factor: proof.factor,
            userID: proof.userID,
            epoch: proof.epoch,
            holds: proof.holds,
            challenge: proof.challenge,
            credential: proof.credential,
            failure: .init(
                subject: proof.failureSubject,
                event: event,
                lock: proof.attempt.flatMap { attempt in lockouts.lock(after: attempt).map { (attempt, $0) } },
                recordedEvent: proof.failureEvent
            ),
            success: .init(
                purpose: target,
                event: event,
                clears: LockoutPolicy.cleared(bySuccessOf: proof.factor),
                stepsUp: proof.stepsUp
            ),
            lockClock: clock
        )
        switch try await completion.run(on: database) {
        case .completed(let user, let session):
            return (user, session)
        case .challengeSpent:
            throw proof.challengeSpent
        case .failed(let locked):
            if locked, let factor = proof.attempt?.factor { metrics.lockout(factor) }
            throw proof.refusal
        case .stale:
            throw proof.stale
        case .passwordChangeRequired:
            throw Rejection(
                .passwordChangeRequired,
                "This account waits for a new password: sign in with the one-time password the support desk gave you."
            )
        case .credentialGone:
            throw proof.credentialGone
        case .sessionEnded:
            throw Rejection(.invalidSession, "The session has ended.")
        case .confirmationClosed:
            throw Rejection(.confirmationClosed, "The confirmation is no longer pending.")
        }
    }
}

extension AccountCore {
    /// The core over `database` with `configuration`'s lockout and session policies, on the
    /// database's clock.
    init(configuration: ServerConfiguration, database: any DatabaseProvider, time: TimeSource, metrics: ServerMetrics) {
        self.init(
            database: database,
            lockouts: configuration.lockoutPolicy,
            sessions: configuration.sessionPolicy,
            clock: DatabaseClock(flavor: database.flavor, time: time),
            time: time,
            metrics: metrics
        )
    }
}

extension AuthenticationMethod {
    /// Whether proving this factor allows credential changes (step-up): the password, a biometric
    /// key and a passkey do; a PIN does not, since a PIN session could otherwise register a key of
    /// its own and so turn a phone and a PIN into a credential that works anywhere.
    var allowsStepUp: Bool { self != .pin }
}
