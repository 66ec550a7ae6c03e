import SQLKit

/// The `spent_challenges` table: the ids of stateless authentication challenges
/// (``AuthenticationChallenge``) that were answered and have not yet expired. A row is inserted
/// in the completion's own transaction, so spending a challenge and what it allowed commit
/// together; a challenge's id begins with its expiry, so rows arrive in key order and leave from
/// the front.
enum SpentChallengeTable {
    /// Spends `challenge` inside the caller's transaction: `false` when it has expired by `now` or
    /// was spent before (of concurrent spenders, exactly one gets `true`).
    static func spend(_ db: any StatementDatabase, _ challenge: AuthenticationChallenge, now: Int64) async throws -> Bool {
        guard challenge.expiresAt > now else { return false }
        return try await db.first(spendStatement, .text(challenge.id)) != nil
    }

    /// Records `$1` as spent; a row comes back only if it was not spent before.
    static let spendStatement = "INSERT INTO spent_challenges (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id"

    /// Deletes the ids of challenges expired by `now` (no longer usable, spent or not); returns how many.
    static func purgeExpired(_ db: any StatementDatabase, now: Int64) async throws -> Int {
        // Every id of a challenge expiring at or after `now` sorts after this prefix.
        try await db.raw("DELETE FROM spent_challenges WHERE id < \(bind: AuthenticationChallenge.idPrefix(expiringAt: now)) RETURNING id")
            .all().count
    }
}
