import Foundation
import Logging
import NIOPosix
import SQLiteKit

/// The embedded database: one SQLite file in WAL mode with durable commits.
///
/// One connection serves the whole process behind an ``AsyncGate``, so that a transaction never
/// interleaves with another task's statements and writers queue instead of failing with
/// `SQLITE_BUSY`.
final class SQLiteDatabaseProvider: DatabaseProvider {
    let flavor = SQLFlavor.sqlite
    private let connection: SQLiteConnection
    private let gate = AsyncGate()
    private let logger: Logger

    /// Why the database could not be opened, in words fit for a one-line error.
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot open database at \(path): \(reason)" }
    }

    private init(connection: SQLiteConnection, logger: Logger) {
        self.connection = connection
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
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw OpenError(path: path, reason: String(describing: error))
        }
        let provider = SQLiteDatabaseProvider(connection: connection, logger: logger)
        do {
            let db = connection.sql()
            // WAL keeps readers off the writer's back; synchronous=FULL makes each commit durable
            // (fsync of the WAL) before the server answers. busy_timeout replaces SQLiteNIO's
            // spinning busy handler in case another process (a backup, an operator) holds a lock.
            _ = try await db.raw("PRAGMA journal_mode = WAL").all()
            try await db.raw("PRAGMA synchronous = FULL").run()
            try await db.raw("PRAGMA foreign_keys = ON").run()
            try await db.raw("PRAGMA busy_timeout = 5000").run()
            // Probe that the file is writable now, not on the first sign-in.
            try await db.raw("CREATE TABLE IF NOT EXISTS bioauth_probe (x INTEGER)").run()
            try await db.raw("DROP TABLE bioauth_probe").run()
        } catch {
            try? await connection.close()
            throw OpenError(path: path, reason: String(describing: error))
        }
        return provider
    }

    func withDatabase<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            try await body(connection.sql())
        }
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            try await runTransaction(on: connection.sql(), begin: "BEGIN IMMEDIATE", logger: logger, body)
        }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.reason == .constraintUniqueFailed || error.reason == .constraintPrimaryKeyFailed
            || (error.reason == .constraint && error.message.contains("UNIQUE constraint failed"))
    }

    func shutdown() async throws {
        try await gate.withGate {
            try await connection.close()
        }
    }
}
