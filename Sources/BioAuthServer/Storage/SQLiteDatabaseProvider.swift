import Foundation
import Logging
import NIOPosix
import SQLiteKit

/// The embedded database: one SQLite file in WAL mode with durable commits.
///
/// Writes go through two connections behind one ``AsyncGate``, so that a transaction never
/// interleaves with another task's statements and writers queue instead of failing with
/// `SQLITE_BUSY`: the durable one (`synchronous = FULL`: each commit syncs the WAL before the
/// server answers) for everything, and the relaxed one (`synchronous = NORMAL`) for
/// ``transactionWithoutWaitingForDisk(_:)`` alone. The WAL is one file, so the next durable
/// commit syncs the relaxed one's frames too.
///
/// A third connection checkpoints the WAL into the database file every 200 ms
/// (``SQLiteCheckpointer``), so that no request waits for a checkpoint. All run on ``threads``,
/// not on NIO's shared pool, where a statement could queue behind a quarter-second bcrypt hash.
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
    private let durable: SQLiteConnection
    private let relaxed: SQLiteConnection
    private let checkpointer: SQLiteCheckpointer
    private let gate = AsyncGate()
    private let logger: Logger

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot open database at \(path): \(reason)" }
    }

    private init(durable: SQLiteConnection, relaxed: SQLiteConnection, checkpointer: SQLiteCheckpointer, logger: Logger) {
        self.durable = durable
        self.relaxed = relaxed
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
        var opened: [SQLiteConnection] = []
        do {
            let durable = try await connect(path: path, synchronous: "FULL", logger: logger)
            opened.append(durable)
            let relaxed = try await connect(path: path, synchronous: "NORMAL", logger: logger)
            opened.append(relaxed)
            // Probe that the file is writable now, not on the first sign-in.
            try await durable.sql().raw("CREATE TABLE IF NOT EXISTS bioauth_probe (x INTEGER)").run()
            try await durable.sql().raw("DROP TABLE bioauth_probe").run()
            let checkpointer = try await SQLiteCheckpointer.start(path: path, threads: Self.threads, logger: logger)
            return SQLiteDatabaseProvider(durable: durable, relaxed: relaxed, checkpointer: checkpointer, logger: logger)
        } catch {
            for connection in opened.reversed() {
                try? await connection.close()
            }
            throw OpenError(path: path, reason: String(describing: error))
        }
    }

    /// Opens one writing connection in WAL mode with the given `synchronous` setting.
    private static func connect(path: String, synchronous: String, logger: Logger) async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: threads, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        do {
            let db = connection.sql()
            // busy_timeout replaces SQLiteNIO's spinning busy handler in case another process (a
            // backup, an operator) holds a lock. The checkpointer copies the WAL into the file; the
            // automatic checkpoint stays as a backstop at 40 MB.
            _ = try await db.raw("PRAGMA journal_mode = WAL").all()
            try await db.raw(SQLQueryString("PRAGMA synchronous = \(unsafeRaw: synchronous)")).run()
            try await db.raw("PRAGMA foreign_keys = ON").run()
            try await db.raw("PRAGMA busy_timeout = 5000").run()
            _ = try await db.raw("PRAGMA wal_autocheckpoint = 10000").all()
            // 32 MiB of pages instead of SQLite's default 2 MiB, so that the inner pages of a
            // million accounts' indexes stay in memory (docs/BENCHMARKS.md, growth).
            try await db.raw("PRAGMA cache_size = -32768").run()
            return connection
        } catch {
            try? await connection.close()
            throw error
        }
    }

    func withDatabase<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [durable] in
            try await body(durable.sql())
        }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [durable, logger] in
            try await runTransaction(on: durable.sql(), begin: "BEGIN IMMEDIATE", logger: logger, body)
        }
    }

    func transactionWithoutWaitingForDisk<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [relaxed, logger] in
            try await runTransaction(on: relaxed.sql(), begin: "BEGIN IMMEDIATE", logger: logger, body)
        }
    }

    /// Runs `work` alone on the connections, in a task of high priority.
    ///
    /// Every statement's result comes back through the concurrency runtime's queue; at default
    /// priority it waits there behind the HTTP work of every other request while this one holds
    /// the gate, so the one-writer section stretches and throughput falls as load rises (from
    /// 322 sign-ins/s at 4 connections to 188/s at 64 before this; see docs/BENCHMARKS.md).
    private func exclusively<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(priority: .high) { [gate] in
            try await gate.withGate(work)
        }.value
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.reason == .constraintUniqueFailed || error.reason == .constraintPrimaryKeyFailed
            || (error.reason == .constraint && error.message.contains("UNIQUE constraint failed"))
    }

    func shutdown() async throws {
        // The durable connection closes last: the last close checkpoints the WAL, syncs the file
        // and removes the WAL.
        await checkpointer.stop()
        try await gate.withGate {
            do {
                try await relaxed.close()
            } catch {
                try? await durable.close()
                throw error
            }
            try await durable.close()
        }
    }
}
