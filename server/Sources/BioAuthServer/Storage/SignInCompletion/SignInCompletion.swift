import BioAuthProtocol
import Foundation

/// The account core's one transaction (``AccountCore/complete(_:for:)``), as values: what a
/// proof answered and what its success or failure writes. Each database runs it whole: SQLite as
/// statements one after another in one transaction (``runStatements(_:)``), PostgreSQL as one
/// statement of data-modifying `WITH` steps, each gated on the ones before
/// (``SignInCompletionStatement``), in one round trip.
///
/// In order, whatever the credential:
/// 1. spend the challenge, if there is one; a challenge spent before (or expired) ends it here;
/// 2. if the proof did not hold: lock the factor when the policy says so, count the failure in the
///    audit trail (and record a suspected clone), and end;
/// 3. read the account, locking its row against a concurrent credential change, and judge its
///    state (``AccountStateSQL``): the epoch the proof saw, a password change pending, a spent or
///    expired one-time password;
/// 4. check that the credential is still current, recording its use;
/// 5. clear the factor's failures; spend a one-time password;
/// 6. create the session (restricted and short while a password change is pending), renew the
///    caller's, or approve the confirmation (pending, unexpired, fewer than five failures); write
///    the audit event. A proof for a confirmation that did not hold counts against it in step 2.
struct SignInCompletion: Sendable {
    var now: Date
    var factor: AuthenticationMethod
    /// The account; `nil` for a username without one.
    var userID: String?
    var epoch: Int64
    var holds: Bool
    var challenge: ChallengeToSpend?
    var credential: CredentialInUse
    var failure: Failure
    var success: Success
    /// The clock locks are set by (the database's, unless a test moved time).
    var lockClock: DatabaseClock

    /// What a proof that did not hold writes.
    struct Failure: Sendable {
        /// Whose trail counts it, if anyone's.
        var subject: AuditLog.Subject?
        /// The kind it is counted as.
        var event: AuditEvent.Kind
        /// The reserved attempt and the lock its failure sets, for a secret factor.
        var lock: (attempt: LockoutPolicy.Attempt, lock: LockoutPolicy.Lock)?
        /// An event recorded whole besides.
        var recordedEvent: AuditEvent.Kind?
    }

    /// What a proof that held writes.
    struct Success: Sendable {
        var purpose: Purpose
        var event: AuditEvent.Kind
        /// The failure counters it clears.
        var clears: [LockoutPolicy.Factor]
        /// Whether the factor may change credentials, so that the session's step-up time moves.
        var stepsUp: Bool
    }

    /// What the proof is for.
    enum Purpose: Sendable {
        /// A new session (its id, times and authentication), whose token hashes to `tokenDigest`.
        case newSession(Session, tokenDigest: Data)
        /// The caller's live session, whose authentication is renewed.
        case renew(sessionID: String)
        /// No session: the proof approves a confirmation. Its success is recorded (its challenge
        /// spent, its credential's use, its audit event) with the confirmation's approval; its
        /// failure counts against the confirmation too (``ConfirmationTable``).
        case record(ConfirmationApproval)
    }

    /// A confirmation a proof approves, whatever the factor: its id and the receipt it keeps.
    struct ConfirmationApproval: Sendable, Equatable {
        /// `cnf_…`, the account's.
        var confirmationID: String
        /// The receipt (a compact JWS) an approval stores.
        var receipt: String
    }

    /// The confirmation the proof is for, if it is for one.
    var confirmation: ConfirmationApproval? {
        if case .record(let approval) = success.purpose { return approval }
        return nil
    }

    /// What the transaction decided.
    enum Verdict: Sendable, Equatable {
        /// The challenge was spent before, or has expired.
        case challengeSpent
        /// The proof did not hold; the failure is counted (and locked the factor when `locked`).
        case failed(locked: Bool)
        /// The account is gone, or changed since the proof's check began (a spent one-time
        /// password too).
        case stale
        /// The account waits for a new password: only its one-time password signs in.
        case passwordChangeRequired
        /// The credential was revoked, or used by a racing sign-in.
        case credentialGone
        /// The session to renew has ended.
        case sessionEnded
        /// The confirmation to approve is no longer pending: approved, declined, blocked or
        /// expired (or another account's).
        case confirmationClosed
        /// Done: the account's user and the session made or renewed (none for a record).
        case completed(User, Session?)
    }

    /// Runs it on `database`; the commit is durable before this returns.
    func run(on database: any DatabaseProvider) async throws -> Verdict {
        switch database.flavor {
        case .sqlite: try await database.transaction { db in try await runStatements(db) }
        case .postgres: try await database.withDatabase { db in try await SignInCompletionStatement.run(self, on: db) }
        }
    }

    /// The restricted session's end: at most ``SessionPolicy/restrictedMinutes`` from now.
    var restrictedExpiry: Date {
        now.addingTimeInterval(TimeInterval(SessionPolicy.restrictedMinutes * 60))
    }

    /// The verdict on an account whose state `AccountStateSQL` reported as `state`.
    static func verdict(onState state: String?) -> Verdict? {
        switch state {
        case AccountStateSQL.current: nil
        case AccountStateSQL.passwordChangeRequired: .passwordChangeRequired
        default: .stale
        }
    }
}
