import Logging
import Synchronization

/// Read-only connections to the database file, each lent to one reading task at a time, which
/// runs its statements on its own thread.
///
/// WAL lets readers run beside the writer, each statement on the newest commit. A read is a few
/// page lookups, mostly in the OS's cache, and costs less than the two thread switches a hop to a
/// dedicated reading thread and back would add. So a task takes an idle connection, or opens one,
/// and gives it back after; readers at once are as many as the threads running reads, and a few
/// stay open between reads.
final class SQLiteReaders: Sendable {
    private struct State {
        var idle: [SQLiteHandle] = []
        var closed = false
    }

    /// Connections kept open between reads; more are closed when they come back.
    static let keptIdle = 4

    private let path: String
    private let logger: Logger
    private let state = Mutex(State())

    /// Readers of the database file at `path`, which must already be in WAL mode. One connection
    /// is opened now, so that a file that cannot be read fails at start.
    init(path: String, logger: Logger) throws {
        self.path = path
        self.logger = logger
        let first = try Self.open(path)
        state.withLock { $0.idle.append(first) }
    }

    /// Runs `body` with a connection of its own. A write through it fails (`query_only`).
    func read<T: Sendable>(_ body: (any StatementDatabase) async throws -> T) async throws -> T {
        let handle = try state.withLock { $0.idle.popLast() } ?? Self.open(path)
        defer { giveBack(handle) }
        return try await body(SQLiteHandleDatabase(handle: handle, thread: nil, logger: logger))
    }

    /// Closes the idle connections, and each lent one when it comes back.
    func close() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for handle in idle { try? handle.close() }
    }

    private func giveBack(_ handle: SQLiteHandle) {
        let kept = state.withLock { state in
            guard !state.closed, state.idle.count < Self.keptIdle else { return false }
            state.idle.append(handle)
            return true
        }
        if !kept { try? handle.close() }
    }

    private static func open(_ path: String) throws -> SQLiteHandle {
        try SQLiteHandle(path: path, settings: SQLiteConnectionSettings.reading)
    }
}
