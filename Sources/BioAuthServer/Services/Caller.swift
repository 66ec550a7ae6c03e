import Foundation

/// Who is calling: the session the bearer token opened, and its user.
struct Caller: Sendable {
    var sessionID: String
    var userID: String
    /// The session's last primary authentication (for ``StepUp``).
    var authenticatedAt: Date
    /// The session was signed in with a one-time password (see ``BearerAuthMiddleware``).
    var passwordChangeRequired = false
}
