import Foundation
import NIOPosix
import SQLKit
import SQLiteNIO

@testable import BioAuthServer

/// Every row of every table of a SQLite file, read by a separate connection, so a test can say
/// "this rejected request changed nothing".
struct DatabaseSnapshot: Equatable, CustomStringConvertible {
    var tables: [String: [String]]

    static func read(path: String) async throws -> DatabaseSnapshot {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            var tables: [String: [String]] = [:]
            let names = try await connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .compactMap { $0.column("name")?.string }
            for name in names {
                let rows = try await connection.query("SELECT * FROM \"\(name)\"")
                tables[name] = rows.map { row in
                    row.columns.map { "\($0.name)=\($0.data)" }.joined(separator: "|")
                }.sorted()
            }
            try await connection.close()
            return DatabaseSnapshot(tables: tables)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Every row of every table of a PostgreSQL database (each row in PostgreSQL's text form).
    static func read(postgres database: any DatabaseProvider) async throws -> DatabaseSnapshot {
        try await database.withDatabase { db in
            var tables: [String: [String]] = [:]
            let names = try await db.raw(
                """
                SELECT table_name::text AS name FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1
                """
            ).all().map { try $0.decode(column: "name", as: String.self) }
            for name in names {
                tables[name] = try await db.raw("SELECT t::text AS row FROM \(ident: name) t").all()
                    .map { try $0.decode(column: "row", as: String.self) }.sorted()
            }
            return DatabaseSnapshot(tables: tables)
        }
    }

    /// The snapshot without the given tables (those a request is allowed to change).
    func excluding(_ names: [String]) -> DatabaseSnapshot {
        DatabaseSnapshot(tables: tables.filter { !names.contains($0.key) })
    }

    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]!.count) rows" }.joined(separator: ", ")
    }
}
