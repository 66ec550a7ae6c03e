import Foundation
import Logging
import SQLKit
import Testing

@testable import BioAuthServer

@Suite("Schema migrations")
struct MigrationTests {
    private func withDatabaseFile<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("db.sqlite").path)
    }

    private func versions(_ database: any DatabaseProvider) async throws -> [Int] {
        try await database.withDatabase { db in
            try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all().map { try $0.decode(column: "version", as: Int.self) }
        }
    }

    @Test("a new database is migrated to the latest version, once")
    func migratesOnce() async throws {
        try await withDatabaseFile { path in
            let logger = Logger(label: "test")
            for _ in 0..<2 {
                let database = try await SQLiteDatabaseProvider.open(path: path, logger: logger)
                try await Migrator.migrate(database, now: Date(), logger: logger)
                #expect(try await versions(database) == Migrator.migrations.map(\.version))
                try await database.shutdown()
            }
        }
    }

    @Test("a database from a newer build is refused, not touched")
    func refusesNewerSchema() async throws {
        try await withDatabaseFile { path in
            let logger = Logger(label: "test")
            let database = try await SQLiteDatabaseProvider.open(path: path, logger: logger)
            try await Migrator.migrate(database, now: Date(), logger: logger)
            try await database.withDatabase { db in
                try await db.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)").run()
            }
            await #expect(throws: Migrator.NewerSchemaError.self) {
                try await Migrator.migrate(database, now: Date(), logger: logger)
            }
            try await database.shutdown()
        }
    }

    @Test("a new SQLite database has 1 KiB pages; a file made with 4 KiB pages keeps them and is migrated and used as before")
    func pageSize() async throws {
        let logger = Logger(label: "test")
        @Sendable func pageSize(_ database: any DatabaseProvider) async throws -> Int64? {
            try await database.withDatabase { db in try await db.first("PRAGMA page_size")?.integer(0) }
        }
        try await withDatabaseFile { path in
            let database = try await SQLiteDatabaseProvider.open(path: path, logger: logger)
            #expect(try await pageSize(database) == 1024)
            try await database.shutdown()
        }
        try await withDatabaseFile { path in
            // A file an older build made: SQLite's default page size, already in WAL mode.
            let old = try SQLiteHandle(path: path, settings: ["PRAGMA journal_mode = WAL", "CREATE TABLE made_before (x INTEGER)"])
            try old.close()
            let database = try await SQLiteDatabaseProvider.open(path: path, logger: logger)
            try await Migrator.migrate(database, now: Date(), logger: logger)
            #expect(try await pageSize(database) == 4096)
            #expect(try await versions(database) == Migrator.migrations.map(\.version))
            try await database.shutdown()
        }
    }

    @Test("SQLite runs in WAL mode, and every commit syncs")
    func durableSettings() async throws {
        try await withDatabaseFile { path in
            let database = try await SQLiteDatabaseProvider.open(path: path, logger: Logger(label: "test"))
            @Sendable func synchronous(_ db: any SQLDatabase) async throws -> Int? {
                try await db.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
            }
            let mode = try await database.withDatabase { db in
                try await db.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
            }
            #expect(mode == "wal")
            let statement = try await database.withDatabase(synchronous)
            let transaction = try await database.transaction(synchronous)
            #expect(statement == 2 && transaction == 2, "2 is FULL: the WAL is synced before the commit returns")
            try await database.shutdown()
        }
    }
}
