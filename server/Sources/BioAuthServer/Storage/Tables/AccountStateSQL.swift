/// The account rules a proof must meet before its session is made, as one SQL expression over a
/// `users` row that both databases evaluate: the text is written here once, and the account's read
/// (``UserTable/readingAccount(when:lock:)``) holds it.
///
/// The state is ``current`` only when the row's credential epoch is the one
/// the proof saw, no password change is pending unless the proof is the (one-time) password, and a
/// password proof's password has not expired (a one-time password expires, and its sign-in spends
/// it by expiring it).
enum AccountStateSQL {
    /// The account may complete the proof.
    static let current = "current"
    /// A password change is pending and the proof is not the password.
    static let passwordChangeRequired = "password_change_required"

    /// The expression, with the placeholders (`$n`) of the proof's epoch, its factor and now, in
    /// the order they first appear.
    static func state(epoch: String, factor: String, now: String) -> String {
        """
        CASE WHEN credential_epoch <> \(epoch) THEN 'stale' \
        WHEN password_change_required <> 0 AND \(factor) <> 'password' THEN '\(passwordChangeRequired)' \
        WHEN \(factor) = 'password' AND password_expires_at IS NOT NULL AND password_expires_at <= \(now) THEN 'stale' \
        ELSE '\(current)' END
        """
    }
}
