import Foundation
import SQLKit
import SQLiteKit
import Synchronization
import Testing

@testable import BioAuthServer

@Suite("SQLite on its own thread")
struct SQLiteThreadTests {
    private func withHandle<T>(_ body: (SQLiteThread, SQLiteHandle) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-thread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let thread = SQLiteThread(name: "sqlite-test")
        defer { thread.stop() }
        let handle = try await thread.perform { try SQLiteHandle(path: folder.appendingPathComponent("db.sqlite").path) }
        do {
            let result = try await body(thread, handle)
            try await thread.perform { try handle.close() }
            return result
        } catch {
            try? await thread.perform { try handle.close() }
            throw error
        }
    }

    @Test("a task's work runs on the thread, in order, and the caller resumes elsewhere")
    func runsJobsOnItsThread() async throws {
        let thread = SQLiteThread(name: "sqlite-test")
        defer { thread.stop() }
        let order = Mutex<[Int]>([])
        #expect(!thread.isCurrent)
        for index in 0..<100 {
            let onThread = try await thread.perform {
                order.withLock { $0.append(index) }
                return thread.isCurrent
            }
            #expect(onThread)
        }
        #expect(order.withLock { $0 } == Array(0..<100))
        // Back on the caller's executor: what the caller does next must not hold up the queries.
        #expect(!thread.isCurrent)
    }

    @Test("statements run on the thread; called from elsewhere, they move there and back")
    func transactionStaysOnThread() async throws {
        try await withHandle { thread, handle in
            let db = SQLiteHandleDatabase(handle: handle, thread: thread, logger: .init(label: "test"))
            try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, bytes BLOB, score REAL)").run()
            let seen = try await withTaskExecutorPreference(thread) {
                var seen: [Bool] = []
                for id in 0..<10 {
                    try await db.raw(
                        "INSERT INTO t (id, name, bytes, score) VALUES (\(bind: id), \(bind: "n\(id)"), \(bind: Data([UInt8(id), 0, 255])), \(bind: Double(id) / 2))"
                    ).run()
                    seen.append(thread.isCurrent)
                }
                return seen
            }
            #expect(seen == Array(repeating: true, count: 10))
            // Called off the thread, a statement moves there and back; the cached statement takes
            // new binds each time.
            for id in [3, 7] {
                let row = try #require(try await db.raw("SELECT id, name, bytes, score FROM t WHERE id = \(bind: id)").first())
                #expect(try row.decode(column: "name", as: String.self) == "n\(id)")
                #expect(try row.decode(column: "bytes", as: Data.self) == Data([UInt8(id), 0, 255]))
                #expect(try row.decode(column: "score", as: Double.self) == Double(id) / 2)
                #expect(try row.decodeNil(column: "missing"))
                #expect(throws: MissingColumnError.self) { try row.decode(column: "missing", as: Int.self) }
            }
            #expect(try await db.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) == 10)
        }
    }

    @Test("SQLite's errors carry the extended code; a failed statement leaves the connection usable")
    func errorsAreReported() async throws {
        try await withHandle { thread, handle in
            let db = SQLiteHandleDatabase(handle: handle, thread: thread, logger: .init(label: "test"))
            try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)").run()
            try await db.raw("INSERT INTO t (name) VALUES (\(bind: "a"))").run()
            let duplicate = await #expect(throws: SQLiteStatementError.self) {
                try await db.raw("INSERT INTO t (name) VALUES (\(bind: "a"))").run()
            }
            #expect(duplicate?.isUniqueViolation == true)
            let syntax = await #expect(throws: SQLiteStatementError.self) { try await db.raw("SELEKT 1").run() }
            #expect(syntax?.isUniqueViolation == false)
            try await db.raw("INSERT INTO t (name) VALUES (\(bind: "b"))").run()
            #expect(try await db.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) == 2)
        }
    }

    @Test("a statement's values bind to $1, $2, … in order and come back typed; placeholders out of order or miscounted are refused")
    func statementsBindInOrder() async throws {
        try await withHandle { thread, handle in
            let db = SQLiteHandleDatabase(handle: handle, thread: thread, logger: .init(label: "test"))
            let row = try await db.first("SELECT $1, $2, $3, $4, $1 || $2", .integer(7), .text("é"), .bytes([0, 255]), .null)
            #expect(row?.values == [.integer(7), .text("é"), .bytes([0, 255]), .null, .text("7é")])
            await #expect(throws: SQLiteStatementError.self) { try await db.first("SELECT $2, $1", .integer(1), .integer(2)) }
            await #expect(throws: SQLiteStatementError.self) { try await db.first("SELECT $1, $2", .integer(1)) }
            await #expect(throws: SQLiteStatementError.self) { try await db.first("SELECT ?, ?", .integer(1), .integer(2)) }
        }
    }
}
