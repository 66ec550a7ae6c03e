import BioAuthProtocol
import Foundation

/// A device key's answer, checked, for the account core: a biometric key's signature, or a PIN
/// key's signature together with the PIN.
///
/// The challenge carries the account's credential epoch from when it was issued, so a sign-in
/// answering it after a password change, a recovery or a revocation yields nothing.
struct DeviceKeyProof: FactorProof {
    let assertion: KeyAssertion
    /// `.biometric`, or `.pin` for a PIN key with its PIN.
    let factor: AuthenticationMethod
    let holds: Bool
    /// The challenge, unless a PIN attempt's reservation spent it.
    let challenge: ChallengeToSpend?
    /// A PIN attempt, reserved against the PIN's lockout.
    let attempt: LockoutPolicy.Attempt?
    /// A PIN's new hash, when it was hashed under a retired server key.
    var newPINHash: String?

    /// A signature's proof, verified here (biometric, or a PIN key's before its PIN): it spends
    /// the challenge.
    init(signatureOf assertion: KeyAssertion, factor: AuthenticationMethod) {
        self.assertion = assertion
        self.factor = factor
        self.holds = assertion.signatureIsValid
        self.challenge = .authentication(assertion.challenge)
        self.attempt = nil
    }

    /// A PIN's proof after its key's signature verified and `attempt` spent the challenge.
    init(pinOf assertion: KeyAssertion, attempt: LockoutPolicy.Attempt, matches: Bool, newPINHash: String?) {
        self.assertion = assertion
        self.factor = .pin
        self.holds = matches
        self.challenge = nil
        self.attempt = attempt
        self.newPINHash = newPINHash
    }

    var stepsUp: Bool { factor.allowsStepUp && assertion.stepsUp }
    var userID: String? { assertion.userID }
    var epoch: Int64 { assertion.challenge.epoch }
    var credential: CredentialInUse { .deviceKey(registrationID: assertion.registrationID, newPINHash: newPINHash) }
    var failureSubject: AuditLog.Subject? { .user(assertion.userID) }
    var signInEvent: AuditEvent.Kind { factor == .pin ? .pinSignIn : .biometricSignIn }
    var refusal: Rejection { attempt == nil ? SignatureRules.invalid : PasswordProof.invalidCredentials }
}
