import Foundation
import Logging
import SQLKit
import Synchronization
import Testing

@testable import BioAuthServer

/// SQLite's group commit: transactions queued behind one another share one commit, each is
/// isolated from the others' failures, and none is answered before the commit that covers it.
/// Reads run on a connection of their own, beside the writer.
@Suite("SQLite group commit")
struct GroupCommitTests {
    private func withProvider<T>(_ body: (SQLiteDatabaseProvider) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = try await SQLiteDatabaseProvider.open(path: folder.appendingPathComponent("db.sqlite").path, logger: Logger(label: "test"))
        do {
            try await provider.withDatabase { db in try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run() }
            let result = try await body(provider)
            try await provider.shutdown()
            return result
        } catch {
            try? await provider.shutdown()
            throw error
        }
    }

    /// A one-shot signal a transaction's body can wait for while it holds the connection.
    private final class Signal: Sendable {
        private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
        func wait() async {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state -> Bool in
                    if !state.fired { state.waiter = continuation }
                    return state.fired
                }
                if fired { continuation.resume() }
            }
        }
        var hasFired: Bool { state.withLock { $0.fired } }
        func fire() {
            state.withLock { state in
                state.fired = true
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    /// Starts a transaction that inserts `id` and then holds the connection until `signal` fires.
    private func holder(_ provider: SQLiteDatabaseProvider, id: Int, until signal: Signal) -> Task<Void, any Error> {
        Task {
            try await provider.transaction { db in
                try await db.raw("INSERT INTO t (id) VALUES (\(bind: id))").run()
                await signal.wait()
            }
        }
    }

    private func insert(_ provider: SQLiteDatabaseProvider, _ id: Int) -> Task<Void, any Error> {
        Task { try await provider.transaction { db in try await db.raw("INSERT INTO t (id) VALUES (\(bind: id))").run() } }
    }

    /// Waits until `count` transactions queue at the connection's gate.
    private func untilQueued(_ provider: SQLiteDatabaseProvider, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while provider.gate.waiting < count {
            guard ContinuousClock.now < deadline else { throw TimeoutError() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
    private struct TimeoutError: Error {}
    /// The transactions answered so far, in order.
    private final class Answers: Sendable {
        private let state = Mutex<[String]>([])
        func add(_ name: String) { state.withLock { $0.append(name) } }
        var names: [String] { state.withLock { $0 } }
    }
    private struct Refused: Error {}

    /// The committed ids, as a reading connection sees them.
    private func ids(_ provider: SQLiteDatabaseProvider) async throws -> [Int] {
        try await provider.read { db in try await db.raw("SELECT id FROM t ORDER BY id").all().map { try $0.decode(column: "id", as: Int.self) } }
    }

    @Test("transactions that queue while one runs share its commit")
    func queuedTransactionsShareOneCommit() async throws {
        try await withProvider { provider in
            let before = try await provider.commitCount
            let signal = Signal()
            let first = holder(provider, id: 0, until: signal)
            try await untilQueued(provider, 0)
            let rest = (1...20).map { insert(provider, $0) }
            try await untilQueued(provider, 20)
            signal.fire()
            try await first.value
            for task in rest { try await task.value }
            #expect(try await provider.commitCount - before == 1, "21 transactions, one commit")
            #expect(try await ids(provider) == Array(0...20))
        }
    }

    @Test("a transaction that fails in a group undoes only its own changes")
    func failuresAreIsolated() async throws {
        try await withProvider { provider in
            let signal = Signal()
            let first = holder(provider, id: 0, until: signal)
            try await Task.sleep(for: .milliseconds(20))
            let kept = insert(provider, 1)
            try await untilQueued(provider, 1)
            let thrown = Task {
                try await provider.transaction { db in
                    try await db.raw("INSERT INTO t (id) VALUES (2)").run()
                    throw Refused()
                }
            }
            try await untilQueued(provider, 2)
            let duplicate = Task {
                try await provider.transaction { db in
                    try await db.raw("INSERT INTO t (id) VALUES (3)").run()
                    try await db.raw("INSERT INTO t (id) VALUES (1)").run()  // taken by `kept`
                }
            }
            try await untilQueued(provider, 3)
            let last = insert(provider, 4)
            try await untilQueued(provider, 4)
            signal.fire()
            try await first.value
            try await kept.value
            do {
                try await thrown.value
                Issue.record("a throwing transaction succeeded")
            } catch {
                #expect(error is Refused, "the member's own error, not the group's")
            }
            do {
                try await duplicate.value
                Issue.record("a duplicate key was accepted")
            } catch {
                #expect(provider.isUniqueViolation(error))
            }
            try await last.value
            #expect(try await ids(provider) == [0, 1, 4])
        }
    }

    @Test("a change is answered only after the commit that covers it; a read is not held back")
    func answersWaitForTheirCommit() async throws {
        try await withProvider { provider in
            let opening = Signal()
            let first = holder(provider, id: 0, until: opening)
            try await Task.sleep(for: .milliseconds(20))
            let answered = Answers()
            let durable = Task {
                try await provider.transaction { db in try await db.raw("INSERT INTO t (id) VALUES (1)").run() }
                answered.add("durable")
            }
            try await untilQueued(provider, 1)
            let read = Task {
                _ = try await provider.transaction { db in try await db.raw("SELECT id FROM t").all() }
                answered.add("read")
            }
            try await untilQueued(provider, 2)
            // The last member holds the group open: nothing it covers may be answered yet.
            let closing = Signal()
            let last = holder(provider, id: 3, until: closing)
            try await untilQueued(provider, 3)
            opening.fire()
            try await read.value
            try await Task.sleep(for: .milliseconds(100))
            #expect(answered.names == ["read"], "the change waits for the group's commit")
            closing.fire()
            try await last.value
            try await first.value
            try await durable.value
            #expect(answered.names.last == "durable")
            #expect(try await ids(provider) == [0, 1, 3])
        }
    }

    @Test("a read runs while a transaction holds the writing connection, and sees what is committed, not the open group")
    func readsRunBesideTheWriter() async throws {
        try await withProvider { provider in
            try await provider.transaction { db in try await db.raw("INSERT INTO t (id) VALUES (1)").run() }
            let inserted = Signal()
            let release = Signal()
            let held = Task {
                try await provider.transaction { db in
                    try await db.raw("INSERT INTO t (id) VALUES (2)").run()
                    inserted.fire()
                    await release.wait()
                }
            }
            await inserted.wait()
            // The writer's connection and gate are held until `release`: a read queued behind
            // them would not return before it.
            let returned = Signal()
            let read = Task {
                defer { returned.fire() }
                return try await ids(provider)
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while !returned.hasFired && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(returned.hasFired, "the read waited for the writer's transaction")
            release.fire()
            try await held.value
            #expect(try await read.value == [1], "the committed row, not the open group's")
            #expect(try await ids(provider) == [1, 2], "a transaction that has returned is seen")
        }
    }

    @Test("the reading connection refuses to write")
    func readerCannotWrite() async throws {
        try await withProvider { provider in
            do {
                try await provider.read { db in try await db.raw("INSERT INTO t (id) VALUES (9)").run() }
                Issue.record("a write through the reading connection succeeded")
            } catch let error as SQLiteStatementError {
                #expect(error.code == 8 /* SQLITE_READONLY */, "\(error)")
            }
            #expect(try await ids(provider).isEmpty)
        }
    }
}
