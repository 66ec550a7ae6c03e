import BioAuthProtocol
import Foundation

/// The step-up rule: a call that adds or changes a credential (registering a device key, setting a
/// PIN, adding a passkey, changing the password) needs the session to have proven, at most
/// ``window`` ago, a factor at least as strong as any credential it could add: the password, a
/// biometric key or a passkey (``Session/stepUpAt``). A PIN never suffices, so a phone and its PIN
/// cannot register a key that then signs in from anywhere, nor move the PIN to another key.
///
/// So a stolen bearer token is worth only what it can do within that window of the owner's own
/// sign-in; after it, the thief would need the password, the owner's biometrics or a passkey.
struct StepUp: Sendable {
    let window: Duration
    let time: TimeSource

    /// Throws `403 reauthentication_required` unless the caller proved a strong factor recently enough.
    func require(_ caller: Caller) throws {
        guard let stepUpAt = caller.stepUpAt, time.now().timeIntervalSince(stepUpAt) <= window.timeInterval else {
            throw Rejection(
                .reauthenticationRequired,
                "This change needs a recent sign-in with the password, a biometric key or a passkey (a PIN is not enough): "
                    + "re-authenticate with POST /v1/sessions/current/reauthenticate, then try again."
            )
        }
    }
}
