import Logging

/// Copies committed pages from SQLite's WAL into the database file, on a connection and a thread
/// of its own, every 200 ms.
///
/// SQLite's automatic checkpoint runs inside the commit that pushes the WAL past its threshold,
/// so one request in a few hundred would also wait for the database file's writes and fsync. A
/// `PASSIVE` checkpoint from a second connection never blocks the writer; it syncs the WAL before
/// it copies, so it never writes a page whose commit is not yet durable.
final class SQLiteCheckpointer: Sendable {
    private let thread: SQLiteThread
    private let handle: SQLiteHandle
    private let loop: Task<Void, Never>

    private init(thread: SQLiteThread, handle: SQLiteHandle, loop: Task<Void, Never>) {
        self.thread = thread
        self.handle = handle
        self.loop = loop
    }

    /// Opens the checkpointing connection and starts checkpointing.
    static func start(path: String, logger: Logger, every interval: Duration = .milliseconds(200)) async throws -> SQLiteCheckpointer {
        let thread = SQLiteThread(name: "sqlite-checkpoint")
        let handle: SQLiteHandle
        do {
            handle = try await thread.perform { try SQLiteHandle(path: path, settings: SQLiteConnectionSettings.checkpointing) }
        } catch {
            thread.stop()
            throw error
        }
        let loop = Task {
            var failing = false  // logged when it starts and when it ends: a full disk fails every try
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                do {
                    try await thread.perform { try handle.execute("PRAGMA wal_checkpoint(PASSIVE)", []) }
                    if failing { logger.notice("WAL checkpoints work again") }
                    failing = false
                } catch {
                    // Nothing is lost: the WAL keeps every commit until a checkpoint copies it.
                    if !failing { logger.warning("WAL checkpoint failed; retrying every \(interval)", metadata: ["error": "\(error)"]) }
                    failing = true
                }
            }
        }
        return SQLiteCheckpointer(thread: thread, handle: handle, loop: loop)
    }

    /// Stops checkpointing, closes the connection and ends its thread.
    func stop() async {
        loop.cancel()
        await loop.value
        try? await thread.perform { [handle] in try handle.close() }
        thread.stop()
    }
}
