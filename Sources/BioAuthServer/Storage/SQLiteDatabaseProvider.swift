import Foundation
import Logging
import NIOPosix
import SQLiteKit
import Synchronization

/// The embedded database: one SQLite file in WAL mode with durable commits.
///
/// One connection serves the whole process behind an ``AsyncGate``, so that a transaction never
/// interleaves with another task's statements and writers queue instead of failing with
/// `SQLITE_BUSY`.
///
/// A second connection checkpoints the WAL into the database file every 200 ms
/// (``SQLiteCheckpointer``), so that no request waits for a checkpoint. Both run on
/// ``threads``, not on NIO's shared pool, where a statement could queue behind a quarter-second
/// bcrypt hash.
final class SQLiteDatabaseProvider: DatabaseProvider {
    let flavor = SQLFlavor.sqlite
    /// The threads SQLite's blocking calls run on, shared by every database the process opens
    /// (a server opens one; the test suite opens dozens at once) and never shut down, like NIO's
    /// own singletons.
    private static let threads: NIOThreadPool = {
        let threads = NIOThreadPool(numberOfThreads: 2)
        threads.start()
        return threads
    }()
    private let connection: SQLiteConnection
    private let checkpointer: SQLiteCheckpointer
    private let gate = AsyncGate()
    private let logger: Logger
    /// Whether the connection may be left at `synchronous = NORMAL` by
    /// ``transactionWithoutWaitingForDisk(_:)``; read and written only inside the gate.
    private let mayBeRelaxed = Mutex(false)

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot open database at \(path): \(reason)" }
    }

    private init(connection: SQLiteConnection, checkpointer: SQLiteCheckpointer, logger: Logger) {
        self.connection = connection
        self.checkpointer = checkpointer
        self.logger = logger
    }

    /// Opens (creating if needed) the database file at `path`.
    static func open(path: String, logger: Logger) async throws -> SQLiteDatabaseProvider {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OpenError(path: path, reason: "directory \(directory) does not exist")
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: Self.threads, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            throw OpenError(path: path, reason: String(describing: error))
        }
        do {
            let db = connection.sql()
            // WAL keeps readers off the writer's back; synchronous=FULL makes each commit durable
            // (fsync of the WAL) before the server answers. busy_timeout replaces SQLiteNIO's
            // spinning busy handler in case another process (a backup, an operator) holds a lock.
            _ = try await db.raw("PRAGMA journal_mode = WAL").all()
            try await db.raw("PRAGMA synchronous = FULL").run()
            try await db.raw("PRAGMA foreign_keys = ON").run()
            try await db.raw("PRAGMA busy_timeout = 5000").run()
            // The checkpointer does this work; the automatic checkpoint stays as a backstop at 40 MB.
            _ = try await db.raw("PRAGMA wal_autocheckpoint = 10000").all()
            // Probe that the file is writable now, not on the first sign-in.
            try await db.raw("CREATE TABLE IF NOT EXISTS bioauth_probe (x INTEGER)").run()
            try await db.raw("DROP TABLE bioauth_probe").run()
        } catch {
            try? await connection.close()
            throw OpenError(path: path, reason: String(describing: error))
        }
        let checkpointer: SQLiteCheckpointer
        do {
            checkpointer = try await SQLiteCheckpointer.start(path: path, threads: Self.threads, logger: logger)
        } catch {
            try? await connection.close()
            throw OpenError(path: path, reason: String(describing: error))
        }
        return SQLiteDatabaseProvider(connection: connection, checkpointer: checkpointer, logger: logger)
    }

    func withDatabase<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            try await restoreDurability()
            return try await body(connection.sql())
        }
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            try await restoreDurability()
            return try await runTransaction(on: connection.sql(), begin: "BEGIN IMMEDIATE", logger: logger, body)
        }
    }

    func transactionWithoutWaitingForDisk<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            // Marked first, so that a failure anywhere below leaves the next caller to restore FULL.
            mayBeRelaxed.withLock { $0 = true }
            try await connection.sql().raw("PRAGMA synchronous = NORMAL").run()
            let result: Result<T, any Error>
            do {
                result = .success(try await runTransaction(on: connection.sql(), begin: "BEGIN IMMEDIATE", logger: logger, body))
            } catch {
                result = .failure(error)
            }
            try? await restoreDurability()
            return try result.get()
        }
    }

    /// Puts the connection back to durable commits if it may not be; inside the gate only. If
    /// this fails, the caller's statement does not run.
    private func restoreDurability() async throws {
        guard mayBeRelaxed.withLock({ $0 }) else { return }
        try await connection.sql().raw("PRAGMA synchronous = FULL").run()
        mayBeRelaxed.withLock { $0 = false }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.reason == .constraintUniqueFailed || error.reason == .constraintPrimaryKeyFailed
            || (error.reason == .constraint && error.message.contains("UNIQUE constraint failed"))
    }

    func shutdown() async throws {
        // The checkpointer closes first, so that the main connection is the last one and its
        // close checkpoints the WAL and removes it.
        await checkpointer.stop()
        try await gate.withGate {
            try await connection.close()
        }
    }
}
