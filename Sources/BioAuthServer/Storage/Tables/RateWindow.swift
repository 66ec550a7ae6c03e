import Foundation
import SQLKit

/// A fixed one-minute window counter in the database, for limits every server instance on one
/// database must share. One row per key; a new minute resets it.
enum RateWindow {
    struct Count {
        var hits: Int
        var retryAfterSeconds: Int
    }

    /// Counts one hit for `key` in the current minute, inside the caller's transaction.
    static func hit(_ db: any SQLDatabase, key: String, now: Date) async throws -> Count {
        let now = now.millisecondsSince1970
        let start = now - now % 60_000
        let row = try await db.raw("""
            INSERT INTO rate_windows (key, window_start, hits) VALUES (\(bind: key), \(bind: start), 1)
            ON CONFLICT (key) DO UPDATE SET
                hits = CASE WHEN rate_windows.window_start = excluded.window_start THEN rate_windows.hits + 1 ELSE 1 END,
                window_start = excluded.window_start
            RETURNING hits
            """).first()
        let hits = try row?.decode(column: "hits", as: Int.self) ?? 1
        return Count(hits: hits, retryAfterSeconds: Int((start + 60_000 - now + 999) / 1000))
    }

    /// Deletes the counters of minutes before `cutoff`; returns how many.
    static func purge(_ db: any SQLDatabase, before cutoff: Int64) async throws -> Int {
        try await db.raw("DELETE FROM rate_windows WHERE window_start < \(bind: cutoff) RETURNING key").all().count
    }
}
