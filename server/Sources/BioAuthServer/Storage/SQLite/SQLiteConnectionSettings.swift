/// The settings of the server's SQLite connections, as PRAGMA statements. The writing connection's
/// are also what the benchmark's SQLite floor opens its connections with, so that it measures the
/// same database.
///
/// Pages are 1 KiB instead of SQLite's default 4 KiB: a commit writes every page it changed to the
/// WAL, and a sign-in changes a row or index entry of a few dozen bytes on each of about a dozen
/// pages, so smaller pages write about half as much per sign-in. The size is fixed when a
/// database file is created; an existing file keeps its own (docs/DEPLOYMENT.md).
///
/// busy_timeout waits in case another process (a backup, an operator) holds a lock. The
/// checkpointer copies the WAL into the file; the automatic checkpoint stays as a backstop at
/// 10,000 pages of WAL (10 MB at 1 KiB pages). The cache is 32 MiB of pages instead of SQLite's
/// default 2 MiB, so that the inner pages of a million accounts' indexes stay in memory.
package enum SQLiteConnectionSettings {
    /// The PRAGMA statements for a connection with the given `synchronous` setting (`FULL`, `NORMAL`).
    package static func pragmas(synchronous: String) -> [String] {
        [
            "PRAGMA page_size = 1024",
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = \(synchronous)",
            "PRAGMA foreign_keys = ON",
            "PRAGMA busy_timeout = 5000",
            "PRAGMA wal_autocheckpoint = 10000",
            "PRAGMA cache_size = -32768",
            // A grouped transaction's savepoint keeps the pages it changes in a sub-journal; in
            // memory, not in a temporary file written (and paid for) on every change.
            "PRAGMA temp_store = MEMORY",
        ]
    }

    /// The PRAGMA statements for the connection that checkpoints the WAL (``SQLiteCheckpointer``):
    /// at `FULL`, a checkpoint syncs the WAL before it copies pages into the database file.
    package static let checkpointing: [String] = ["PRAGMA synchronous = FULL"]

    /// The PRAGMA statements for the server's reading connections. `query_only` makes any write
    /// through one an error; their page caches stay at SQLite's default, because a WAL connection
    /// drops its cache whenever another connection has committed, which the writer does
    /// hundreds of times a second under load.
    package static let reading: [String] = [
        "PRAGMA query_only = ON",
        "PRAGMA busy_timeout = 5000",
    ]
}
