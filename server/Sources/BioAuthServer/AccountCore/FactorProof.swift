import BioAuthProtocol
import Foundation

/// A credential's answer, checked but not yet acted on: what the account core
/// (``AccountCore/complete(_:for:)``) needs to decide whether it yields a session.
///
/// Each credential type (the password, a device key, a passkey) builds one after its own check
/// (a hash, a signature, a WebAuthn assertion) and hands it to the core; none writes a
/// transaction of its own. A new credential type conforms, naming its single-use challenge and its
/// stored credential with the cases the storage knows (``ChallengeToSpend``, ``CredentialInUse``).
protocol FactorProof: Sendable {
    /// The factor it proves.
    var factor: AuthenticationMethod { get }
    /// Whether its success steps the session up (``StepUp``): the factor's rule
    /// (``AuthenticationMethod/allowsStepUp``) unless the credential itself may not.
    var stepsUp: Bool { get }
    /// The account it is for; `nil` for a username without one (only a password attempt has none).
    var userID: String? { get }
    /// The account's credential epoch when the check began: a password change, a recovery or a
    /// revocation moves it, and a proof that saw an older epoch yields nothing.
    var epoch: Int64 { get }
    /// Whether the check held: the secret matched, the signature verified.
    var holds: Bool { get }
    /// The single-use challenge it answered, spent in the completion whatever the verdict (none for
    /// a password, or a PIN whose challenge its reservation spent).
    var challenge: ChallengeToSpend? { get }
    /// The stored credential it verified, which must still be current when the session is made.
    var credential: CredentialInUse { get }
    /// Whose audit trail counts it when it did not hold (nobody's for a credential nobody has).
    var failureSubject: AuditLog.Subject? { get }
    /// For a secret factor, the attempt reserved against the lockout
    /// (``AccountCore/reserve(_:usernameKey:subject:event:registrationID:spending:)``).
    var attempt: LockoutPolicy.Attempt? { get }
    /// The audit event of a sign-in with it.
    var signInEvent: AuditEvent.Kind { get }
    /// An event recorded whole (not counted) when it did not hold; a passkey whose counter went back.
    var failureEvent: AuditEvent.Kind? { get }
    /// The answer when it did not hold.
    var refusal: Rejection { get }
    /// The answer when its challenge was spent or expired, or its account changed under it.
    var challengeSpent: Rejection { get }
    /// The answer when its credential is no longer current (revoked, or used by a racing sign-in).
    var credentialGone: Rejection { get }
    /// The answer when the account changed since the check began (its epoch moved), or a one-time
    /// password was spent meanwhile.
    var stale: Rejection { get }
}

extension FactorProof {
    var stepsUp: Bool { factor.allowsStepUp }
    var challenge: ChallengeToSpend? { nil }
    var attempt: LockoutPolicy.Attempt? { nil }
    var failureEvent: AuditEvent.Kind? { nil }
    var challengeSpent: Rejection { SignatureRules.unknownChallenge }
    var credentialGone: Rejection { SignatureRules.unknownChallenge }
    var stale: Rejection { challengeSpent }
}
