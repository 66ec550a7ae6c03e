import SQLKit
import Synchronization

/// Group commit on SQLite's one writing connection: transactions that arrive while others run
/// share one `COMMIT`, and one fsync, instead of paying one each.
///
/// The first transaction to find no group open begins one (`BEGIN IMMEDIATE`); each later one
/// runs, alone on the connection, as a savepoint inside it. A transaction whose body throws is
/// rolled back to its own savepoint, so it undoes only its own changes. The member that finds
/// nobody waiting at the gate (or the group full) commits, and the members waiting for that
/// commit learn its outcome together: a transaction that changed something durably is answered
/// only after the fsync that covers it, so no answer reports a change a crash could still undo.
///
/// Only the holder of the provider's gate calls it, on the connection's thread.
final class SQLiteGroupCommit: @unchecked Sendable {
    /// A transaction's outcome, and the commit it must wait for before its caller may answer.
    struct Receipt<T: Sendable>: Sendable {
        var outcome: Result<T, any Error>
        var awaiting: CommitGroup?

        /// The body's result, once the commit covering it (if any) is on disk.
        func result() async throws -> T {
            if let awaiting { try await awaiting.committed() }
            return try outcome.get()
        }
    }

    /// The most transactions one group takes, so that a steady stream cannot keep a commit waiting.
    static let maximumMembers = 128

    private let handle: SQLiteHandle
    private let database: SQLiteHandleDatabase
    private let gate: AsyncGate
    private let metrics: DatabaseMetrics?
    private var open: CommitGroup?
    private var members = 0
    /// Groups committed so far (for tests and diagnostics).
    private(set) var commits = 0

    /// Group commit over `database` (opened at `synchronous = FULL`), behind `gate`; each commit
    /// is recorded in `metrics`.
    init(database: SQLiteHandleDatabase, gate: AsyncGate, metrics: DatabaseMetrics?) {
        self.handle = database.handle
        self.database = database
        self.gate = gate
        self.metrics = metrics
    }

    /// Runs `body` as one transaction in the open group, or in a new one.
    func transaction<T: Sendable>(_ body: (any StatementDatabase) async throws -> T) async -> Receipt<T> {
        let changesBefore = handle.totalChanges
        let group: CommitGroup
        let isFirst = open == nil
        if let open {
            group = open
        } else {
            do {
                try handle.execute("BEGIN IMMEDIATE", [])
            } catch {
                return Receipt(outcome: .failure(error), awaiting: nil)
            }
            group = CommitGroup()
            open = group
            members = 0
        }
        members += 1
        let outcome: Result<T, any Error>
        do {
            if !isFirst { try handle.execute("SAVEPOINT member", []) }
            let value = try await body(database)
            if !isFirst { try handle.execute("RELEASE member", []) }
            outcome = .success(value)
        } catch {
            outcome = .failure(error)
            undo(group, firstMember: isFirst)
        }
        let mustWait = outcome.isSuccess && handle.totalChanges != changesBefore
        if open === group {
            if !handle.isInTransaction {
                // SQLite rolled the whole transaction back itself (a full disk, an I/O error):
                // every member's work is gone, and each learns it from the commit it waits for.
                finish(group, .failure(GroupRolledBack()))
            } else if members >= Self.maximumMembers {
                commit(group)
            } else if !(await othersAreWaiting()) {
                commit(group)
            }
        }
        return Receipt(outcome: outcome, awaiting: mustWait ? group : nil)
    }

    /// Runs `body`'s statements: in the open group if there is one, otherwise each committing on
    /// its own (the only way to run statements such as `VACUUM` that refuse a transaction).
    func statements<T: Sendable>(_ body: (any StatementDatabase) async throws -> T) async -> Receipt<T> {
        if open != nil { return await transaction(body) }
        do {
            return Receipt(outcome: .success(try await body(database)), awaiting: nil)
        } catch {
            return Receipt(outcome: .failure(error), awaiting: nil)
        }
    }

    /// Whether other transactions wait to join the group. Tasks bound for the connection queue as
    /// jobs on its thread before they reach the gate, and this member's job holds the thread, so
    /// it first steps to the back of that queue: the jobs ahead of it run, and each that wants
    /// the connection queues at the gate, which this member still holds. With the queue empty,
    /// the step costs one hop and no wait.
    private func othersAreWaiting() async -> Bool {
        if gate.hasWaiters { return true }
        await Task.yield()
        return gate.hasWaiters
    }

    /// Commits the open group, if any (before the connection closes).
    func commitOpenGroup() {
        if let open { commit(open) }
    }

    /// Undoes a member whose body threw: back to its savepoint, or the whole group for the first
    /// member (nothing else is in it yet). If the savepoint cannot be undone, nor can the group be kept.
    private func undo(_ group: CommitGroup, firstMember: Bool) {
        guard handle.isInTransaction else { return }
        do {
            if firstMember {
                try handle.execute("ROLLBACK", [])
                finish(group, .failure(GroupRolledBack()))
            } else {
                try handle.execute("ROLLBACK TO member", [])
                try handle.execute("RELEASE member", [])
            }
        } catch {
            try? handle.execute("ROLLBACK", [])
            finish(group, .failure(error))
        }
    }

    private func commit(_ group: CommitGroup) {
        do {
            let started = ContinuousClock.now
            try handle.execute("COMMIT", [])
            metrics?.committed(transactions: members, since: started)
            commits += 1
            finish(group, .success(()))
        } catch {
            if handle.isInTransaction { try? handle.execute("ROLLBACK", []) }
            finish(group, .failure(error))
        }
    }

    private func finish(_ group: CommitGroup, _ outcome: Result<Void, any Error>) {
        if open === group { open = nil }
        group.finish(outcome)
    }
}

/// One shared transaction's outcome, awaited by its members.
final class CommitGroup: Sendable {
    private struct State {
        var outcome: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = Mutex(State())

    /// Returns once the group has committed; throws if it was rolled back.
    func committed() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    fileprivate func finish(_ outcome: Result<Void, any Error>) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}

/// The shared transaction was rolled back, taking a member's finished work with it.
struct GroupRolledBack: Error, CustomStringConvertible {
    var description: String { "the shared transaction was rolled back" }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
