import BioAuthProtocol
import Foundation

/// The step-up rule: a call that turns a session into a lasting credential (registering a device
/// key, setting a PIN, changing the password) needs the session's last primary authentication
/// (its sign-in, or a re-authentication on it) to be at most ``window`` old.
///
/// So a stolen bearer token is worth only what it can do within that window of the owner's own
/// sign-in; after it, the thief would need the password or the owner's biometrics.
struct StepUp: Sendable {
    let window: Duration
    let time: TimeSource

    /// Throws `403 reauthentication_required` unless the caller authenticated recently enough.
    func require(_ caller: Caller) throws {
        guard time.now().timeIntervalSince(caller.authenticatedAt) <= window.timeInterval else {
            throw Rejection(.reauthenticationRequired,
                           "This change needs a recent sign-in: re-authenticate with POST /v1/sessions/current/reauthenticate, then try again.")
        }
    }
}
