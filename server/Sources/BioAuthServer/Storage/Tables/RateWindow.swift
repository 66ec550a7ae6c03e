import SQLKit

/// The `rate_windows` table: the per-registration challenge counters of schema versions before 8.
/// Nothing writes it any more (``ChallengeRateLimit`` counts in memory); the purge removes what
/// an older build left.
enum RateWindow {
    /// Deletes the counters of minutes before `cutoff`; returns how many.
    static func purge(_ db: any StatementDatabase, before cutoff: Int64) async throws -> Int {
        try await db.raw("DELETE FROM rate_windows WHERE window_start < \(bind: cutoff) RETURNING key").all().count
    }
}
