import Foundation
import Logging
import SQLKit

/// The embedded database: one SQLite file in WAL mode with durable, grouped commits.
///
/// Writes go through two connections behind one ``AsyncGate``, so that a transaction never
/// interleaves with another task's statements and writers queue instead of failing with
/// `SQLITE_BUSY`: the durable one (`synchronous = FULL`: a commit syncs the WAL before the
/// server answers) for everything, and the relaxed one (`synchronous = NORMAL`) for
/// ``transactionWithoutWaitingForDisk(_:)`` when no durable commit is being gathered.
/// Transactions that queue while others run share one commit (``SQLiteGroupCommit``).
///
/// Both connections live on one ``SQLiteThread``, and each transaction runs there from `BEGIN`
/// to `COMMIT` without leaving it. A third connection, on a thread of its own, checkpoints the
/// WAL into the database file every 200 ms (``SQLiteCheckpointer``), so that no request waits for
/// a checkpoint.
final class SQLiteDatabaseProvider: DatabaseProvider {
    let flavor = SQLFlavor.sqlite
    private let thread: SQLiteThread
    private let durable: SQLiteThreadDatabase
    private let relaxed: SQLiteThreadDatabase
    private let groups: SQLiteGroupCommit
    private let checkpointer: SQLiteCheckpointer
    let gate = AsyncGate()

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot open database at \(path): \(reason)" }
    }

    private init(
        thread: SQLiteThread, durable: SQLiteThreadDatabase, relaxed: SQLiteThreadDatabase, checkpointer: SQLiteCheckpointer
    ) {
        self.thread = thread
        self.durable = durable
        self.relaxed = relaxed
        self.groups = SQLiteGroupCommit(durable: durable, relaxed: relaxed, gate: gate)
        self.checkpointer = checkpointer
    }

    /// Opens (creating if needed) the database file at `path`.
    static func open(path: String, logger: Logger) async throws -> SQLiteDatabaseProvider {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OpenError(path: path, reason: "directory \(directory) does not exist")
        }
        let thread = SQLiteThread(name: "sqlite")
        var opened: [SQLiteHandle] = []
        do {
            let durable = try await thread.perform { try connect(path: path, synchronous: "FULL") }
            opened.append(durable)
            let relaxed = try await thread.perform { try connect(path: path, synchronous: "NORMAL") }
            opened.append(relaxed)
            // Probe that the file is writable now, not on the first sign-in.
            try await thread.perform {
                try durable.execute("CREATE TABLE IF NOT EXISTS bioauth_probe (x INTEGER)", [])
                try durable.execute("DROP TABLE bioauth_probe", [])
            }
            let checkpointer = try await SQLiteCheckpointer.start(path: path, logger: logger)
            return SQLiteDatabaseProvider(
                thread: thread,
                durable: SQLiteThreadDatabase(handle: durable, thread: thread, logger: logger),
                relaxed: SQLiteThreadDatabase(handle: relaxed, thread: thread, logger: logger),
                checkpointer: checkpointer)
        } catch {
            try? await thread.perform { [opened] in
                for handle in opened.reversed() { try? handle.close() }
            }
            thread.stop()
            throw OpenError(path: path, reason: String(describing: error))
        }
    }

    /// Opens one writing connection with ``SQLiteConnectionSettings``. Runs on the connection's thread.
    private static func connect(path: String, synchronous: String) throws -> SQLiteHandle {
        try SQLiteHandle(path: path, settings: SQLiteConnectionSettings.pragmas(synchronous: synchronous))
    }

    func withDatabase<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [groups] in await groups.statements(body) }.result()
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [groups] in await groups.transaction(.durable, body) }.result()
    }

    func transactionWithoutWaitingForDisk<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await exclusively { [groups] in await groups.transaction(.relaxed, body) }.result()
    }

    /// Groups committed so far.
    var commitCount: Int {
        get async throws { try await exclusively { [groups] in groups.commits } }
    }

    /// Runs `work` alone on the connections, on their thread.
    private func exclusively<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(thread) { [gate] in
            try await gate.withGate(work)
        }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? SQLiteStatementError)?.isUniqueViolation ?? false
    }

    func shutdown() async throws {
        // The durable connection closes last: the last close checkpoints the WAL, syncs the file
        // and removes the WAL.
        await checkpointer.stop()
        defer { thread.stop() }
        try await exclusively { [durable, relaxed, groups] in
            groups.commitOpenGroup()
            do {
                try relaxed.handle.close()
            } catch {
                try? durable.handle.close()
                throw error
            }
            try durable.handle.close()
        }
    }
}
