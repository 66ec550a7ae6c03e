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
        return try await !db.rows(spend, ["challenge_id": .text(challenge.id)]).isEmpty
    }

    /// Records `:challenge_id` as spent when `gate` holds; a row comes back only if it was not spent
    /// before. The sign-in's completion runs it on both databases.
    static func spending(when gate: String) -> String {
        "INSERT INTO spent_challenges (id) SELECT :challenge_id WHERE \(gate) ON CONFLICT (id) DO NOTHING RETURNING id"
    }

    /// ``spending(when:)`` alone.
    static let spend = NamedSQL(spending(when: "true"))

    /// Deletes the ids of challenges expired by `now` (no longer usable, spent or not); returns how many.
    static func purgeExpired(_ db: any StatementDatabase, now: Int64) async throws -> Int {
        // Every id of a challenge expiring at or after `now` sorts after this prefix.
        try await db.raw("DELETE FROM spent_challenges WHERE id < \(bind: AuthenticationChallenge.idPrefix(expiringAt: now)) RETURNING id")
            .all().count
    }
}
