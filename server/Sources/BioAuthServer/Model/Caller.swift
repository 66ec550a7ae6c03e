import Foundation

/// Who is calling: the session the bearer token opened, and its user.
struct Caller: Sendable {
    var sessionID: String
    var userID: String
    /// The session's last proof of a factor strong enough for credential changes (for ``StepUp``);
    /// `nil` if it never made one (a PIN session).
    var stepUpAt: Date?
    /// The session was signed in with a one-time password (see ``CallerRequiredMiddleware``).
    var passwordChangeRequired = false
    /// The session's last request before this one (its creation at first), for the idle timeout.
    var lastSeenAt: Date
    /// What an access token says of the session, read with the caller.
    var facts: SessionFacts
}
