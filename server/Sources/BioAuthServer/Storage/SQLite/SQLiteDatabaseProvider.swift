import Foundation
import Logging
import SQLKit

/// The embedded database: one SQLite file in WAL mode with durable, grouped commits.
///
/// Reads and writes go through one connection behind one ``AsyncGate``, so that a transaction
/// never interleaves with another task's statements and writers queue instead of failing with
/// `SQLITE_BUSY`. It runs at `synchronous = FULL` (a commit syncs the WAL before the server
/// answers), and transactions that queue while others run share one commit (``SQLiteGroupCommit``).
///
/// The connection lives on one ``SQLiteThread``, and each transaction runs there from `BEGIN`
/// to `COMMIT` without leaving it. A second connection, on a thread of its own, checkpoints the
/// WAL into the database file every 200 ms (``SQLiteCheckpointer``), so that no request waits for
/// a checkpoint.
///
/// ``read(_:)`` runs on read-only connections of its own (``SQLiteReaders``), on the reading
/// task's thread: WAL lets readers run beside the writer, so a request that only reads (the
/// challenge's registration, a bearer token's session) neither queues behind the writer's
/// transactions and their fsyncs nor takes the gate.
final class SQLiteDatabaseProvider: DatabaseProvider {
    let flavor = SQLFlavor.sqlite
    private let thread: SQLiteThread
    private let connection: SQLiteHandleDatabase
    private let groups: SQLiteGroupCommit
    private let checkpointer: SQLiteCheckpointer
    private let readers: SQLiteReaders
    private let metrics: DatabaseMetrics?
    private let outage: DatabaseOutageLog
    let gate = AsyncGate()

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot open database at \(path): \(reason)" }
    }

    private init(
        thread: SQLiteThread,
        connection: SQLiteHandleDatabase,
        readers: SQLiteReaders,
        checkpointer: SQLiteCheckpointer,
        metrics: DatabaseMetrics?,
        logger: Logger
    ) {
        self.thread = thread
        self.connection = connection
        self.groups = SQLiteGroupCommit(database: connection, gate: gate, metrics: metrics)
        self.readers = readers
        self.checkpointer = checkpointer
        self.metrics = metrics
        self.outage = DatabaseOutageLog(logger: logger)
    }

    /// Checks that `path` can name a database file, touching nothing: its folder exists and it is
    /// not itself a folder.
    static func checkLocation(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OpenError(path: path, reason: "it is a directory")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OpenError(path: path, reason: "directory \(directory) does not exist")
        }
    }

    /// Opens (creating if needed) the database file at `path`; its waits and commits go to
    /// `metrics`.
    static func open(path: String, metrics: DatabaseMetrics? = nil, logger: Logger) async throws -> SQLiteDatabaseProvider {
        try checkLocation(path)
        let thread = SQLiteThread(name: "sqlite")
        var opened: SQLiteHandle?
        var readers: SQLiteReaders?
        do {
            let handle = try await thread.perform {
                try SQLiteHandle(path: path, settings: SQLiteConnectionSettings.pragmas(synchronous: "FULL"))
            }
            opened = handle
            // Probe that the file is writable now, not on the first sign-in.
            try await thread.perform {
                try handle.execute("CREATE TABLE IF NOT EXISTS bioauth_probe (x INTEGER)", [])
                try handle.execute("DROP TABLE bioauth_probe", [])
            }
            // Opened after the writer has put the file in WAL mode, which the file remembers.
            let readerPool = try SQLiteReaders(path: path, logger: logger)
            readers = readerPool
            let checkpointer = try await SQLiteCheckpointer.start(path: path, logger: logger)
            return SQLiteDatabaseProvider(
                thread: thread,
                connection: SQLiteHandleDatabase(handle: handle, thread: thread, logger: logger),
                readers: readerPool,
                checkpointer: checkpointer,
                metrics: metrics,
                logger: logger
            )
        } catch {
            readers?.close()
            try? await thread.perform { [opened] in try? opened?.close() }
            thread.stop()
            throw OpenError(path: path, reason: String(describing: error))
        }
    }

    func withDatabase<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        try await outage.watching(Self.unavailability) {
            try await exclusively(.write) { [groups] in await groups.statements(body) }.result()
        }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        try await outage.watching(Self.unavailability) {
            try await exclusively(.transaction) { [groups] in await groups.transaction(body) }.result()
        }
    }

    /// Runs `body` on a reading connection of its own, on the caller's thread, without the gate.
    /// Each statement outside a transaction is its own read transaction, so it sees every commit
    /// made before it began, and never the writer's open group (whose members are not answered
    /// yet).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StatementDatabase) async throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        return try await outage.watching(endsOutage: false, Self.unavailability) {
            try await readers.read { [metrics] db in
                metrics?.waited(.read, since: asked)
                return try await body(db)
            }
        }
    }

    /// Whether `error` means the file cannot be written or read now (a full disk, an I/O error,
    /// no descriptor left to open it) rather than a refusal of the statement or a bug. SQLite has
    /// then rolled back the whole transaction, with every member of its group
    /// (``GroupRolledBack``), or the one statement.
    static func unavailability(of error: any Error) -> DatabaseUnavailable? {
        if let error = error as? GroupRolledBack { return DatabaseUnavailable(reason: error.description) }
        guard let error = error as? SQLiteStatementError else { return nil }
        switch error.code & 0xFF {  // the primary code of an extended one
        case 5 /* BUSY */, 6 /* LOCKED */, 7 /* NOMEM */, 10 /* IOERR */, 13 /* FULL */, 14 /* CANTOPEN */:
            return DatabaseUnavailable(reason: error.description)
        default:
            return nil
        }
    }

    /// Groups committed so far.
    var commitCount: Int {
        get async throws { try await exclusively { [groups] in groups.commits } }
    }

    /// Runs `work` alone on the connections, on their thread; records how long it waited as
    /// `kind`, if it is one.
    private func exclusively<T: Sendable>(
        _ kind: DatabaseMetrics.Work? = nil,
        _ work: @escaping @Sendable () async throws -> T
    )
        async throws -> T
    {
        let asked = ContinuousClock.now
        return try await withTaskExecutorPreference(thread) { [gate, metrics] in
            try await gate.withGate {
                if let kind { metrics?.waited(kind, since: asked) }
                return try await work()
            }
        }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? SQLiteStatementError)?.isUniqueViolation ?? false
    }

    func shutdown() async throws {
        // The connection closes last: the last close checkpoints the WAL, syncs the file and
        // removes the WAL.
        await checkpointer.stop()
        readers.close()
        defer { thread.stop() }
        try await exclusively { [connection, groups] in
            groups.commitOpenGroup()
            try connection.handle.close()
        }
    }
}
