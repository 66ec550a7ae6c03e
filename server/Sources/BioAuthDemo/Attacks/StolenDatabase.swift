import Foundation
import Logging
import SQLiteKit

/// A copy of the server's SQLite file (and its write-ahead log), as a thief would have it.
struct StolenDatabase {
    /// What the users table holds for one account.
    struct Account {
        var username: String
        var passwordHash: String
        var hasPIN: Bool
    }

    /// What the sessions table holds for one session.
    struct Session {
        var id: String
        var tokenHash: Data
    }

    var files: [URL]
    var accounts: [Account]
    var sessions: [Session]

    /// Copies the database at `path` (with `-wal` and `-shm`) into `folder` and reads it.
    static func steal(from path: String, into folder: URL) async throws -> StolenDatabase {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [URL] = []
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            let copy = folder.appendingPathComponent("stolen.sqlite" + suffix)
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy.path)
            files.append(copy)
        }
        // Read the raw bytes before SQLite folds the log into the main file.
        let logger = Logger(label: "stolen", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await SQLiteConnection.open(storage: .file(path: folder.appendingPathComponent("stolen.sqlite").path), logger: logger)
        do {
            let db = connection.sql()
            let accounts = try await db.raw(
                """
                SELECT u.username AS username, u.password_hash AS password_hash,
                       EXISTS (SELECT 1 FROM registrations r WHERE r.user_id = u.id AND r.pin_hash IS NOT NULL) AS has_pin
                FROM users u
                """
            ).all().map { row in
                Account(
                    username: try row.decode(column: "username", as: String.self),
                    passwordHash: try row.decode(column: "password_hash", as: String.self),
                    hasPIN: try row.decode(column: "has_pin", as: Int.self) != 0
                )
            }
            let sessions = try await db.raw("SELECT id, token_hash FROM sessions").all().map { row in
                Session(id: try row.decode(column: "id", as: String.self), tokenHash: try row.decode(column: "token_hash", as: Data.self))
            }
            try await connection.close()
            return StolenDatabase(files: files, accounts: accounts, sessions: sessions)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Whether any of the copied files contains `needle`'s bytes.
    func contains(_ needle: String, in snapshots: [Data]) -> Bool {
        snapshots.contains { $0.range(of: Data(needle.utf8)) != nil }
    }
}
