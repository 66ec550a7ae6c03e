import Logging
import NIOPosix
import SQLiteKit

/// Copies committed pages from SQLite's WAL into the database file, on a connection of its own,
/// every 200 ms.
///
/// SQLite's automatic checkpoint runs inside the commit that pushes the WAL past its threshold,
/// so one request in a few hundred would also wait for the database file's writes and fsync. A
/// `PASSIVE` checkpoint from a second connection never blocks the writer; it syncs the WAL before
/// it copies, so it never writes a page whose commit is not yet durable.
final class SQLiteCheckpointer: Sendable {
    private let connection: SQLiteConnection
    private let loop: Task<Void, Never>

    private init(connection: SQLiteConnection, loop: Task<Void, Never>) {
        self.connection = connection
        self.loop = loop
    }

    /// Opens the second connection and starts checkpointing.
    static func start(path: String, threads: NIOThreadPool, logger: Logger, every interval: Duration = .milliseconds(200)) async throws -> SQLiteCheckpointer {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threads, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        do {
            try await connection.sql().raw("PRAGMA synchronous = FULL").run()
        } catch {
            try? await connection.close()
            throw error
        }
        let loop = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { break }
                do {
                    _ = try await connection.sql().raw("PRAGMA wal_checkpoint(PASSIVE)").all()
                } catch {
                    guard !Task.isCancelled else { break }  // stop() interrupted it: not a failure
                    // The automatic checkpoint (at 40 MB of WAL) still bounds the file.
                    logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
                }
            }
        }
        return SQLiteCheckpointer(connection: connection, loop: loop)
    }

    /// Stops checkpointing and closes the connection.
    func stop() async {
        loop.cancel()
        await loop.value
        try? await connection.close()
    }
}
