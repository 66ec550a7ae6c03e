import Foundation

/// One dedicated thread that runs tasks' jobs in arrival order: the only thread that touches a
/// SQLite connection.
///
/// Code in `withTaskExecutorPreference(thread)` runs here, so a whole transaction — `BEGIN`, its
/// statements, `COMMIT` and the fsync — runs as consecutive work on one thread, with no hop to
/// another thread between statements. (Through SQLiteNIO each statement went to a thread pool,
/// came back through an event loop and then through the concurrency runtime's queue, where it
/// waited behind other requests' HTTP work while this one held SQLite's single write lock.)
final class SQLiteThread: TaskExecutor, @unchecked Sendable {
    // `condition` guards `jobs`, `stopping` and `finished`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var finished = false
    private let threadID = ThreadIdentity()

    /// Starts the thread; `name` shows in debuggers and `top -H`. The thread keeps itself alive
    /// until ``stop()``, which every owner must call.
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool { threadID.isCurrent }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on this thread and returns its result to the caller's executor.
    func perform<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(self) { try body() }
    }

    /// Runs the jobs already queued, then ends the thread and waits for it. Call it once, from
    /// another thread, after the last work for this thread has finished.
    func stop() {
        precondition(!isCurrent, "a thread cannot wait for its own end")
        condition.lock()
        stopping = true
        condition.signal()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        threadID.claim()
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// Which OS thread a ``SQLiteThread`` is, recorded by that thread itself.
private final class ThreadIdentity: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: pthread_t?

    func claim() {
        lock.withLock { thread = pthread_self() }
    }

    var isCurrent: Bool {
        lock.withLock { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
}
