import Foundation

/// A route's demand for a recent strong authentication: the session's `step_up_at` (the last time
/// it proved the password, a biometric key or a passkey; never a PIN) at most ``maxAge`` old. A
/// refused caller gets RFC 9470's `insufficient_user_authentication` with the `max_age` to meet,
/// so the app re-authenticates with BioAuth, fetches a new token and retries.
struct StepUpPolicy: Sendable {
    /// How old `step_up_at` may be.
    let maxAge: TimeInterval
    /// Clock skew tolerated on a `step_up_at` ahead of this backend's clock.
    let leeway: TimeInterval

    /// Whether these claims show a strong authentication recent enough at `now`.
    func isSatisfied(by claims: AccessTokenClaims, now: Date) -> Bool {
        guard let stepUpAt = claims.stepUpAt else { return false }
        let age = now.timeIntervalSince(stepUpAt)
        return age <= maxAge && age >= -leeway
    }
}
