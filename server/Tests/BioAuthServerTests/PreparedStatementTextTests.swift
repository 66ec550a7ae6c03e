import Foundation
import Testing
// SQLite's C API, as the server's SQLiteHandle drives it (sqlite-nio's vendored copy).
import VaporCSQLite

@testable import BioAuthServer

@Suite("Prepared statement texts")
struct PreparedStatementTextTests {
    /// The texts run for every request on either database.
    static let single: [any PreparedStatementText.Type] = [
        RegistrationTable.ActiveOwnerEpoch.self, RegistrationTable.SigningKey.self, SessionTable.CallerByToken.self,
        UserTable.AccountState.self,
    ]

    /// The completion's texts on PostgreSQL, one per factor and purpose, their parameters named.
    static let completions: [any PreparedStatementText.Type] = {
        typealias C = SignInCompletionStatement
        return [
            C.Text<C.Biometric, C.SignIn>.self, C.Text<C.Biometric, C.Renewal>.self, C.Text<C.Biometric, C.Record>.self,
            C.Text<C.PIN, C.SignIn>.self, C.Text<C.PIN, C.Renewal>.self, C.Text<C.PIN, C.Record>.self,
            C.Text<C.Passkey, C.SignIn>.self, C.Text<C.Passkey, C.Renewal>.self, C.Text<C.Passkey, C.Record>.self,
            C.Text<C.Password, C.SignIn>.self, C.Text<C.Password, C.Renewal>.self, C.Text<C.Password, C.Record>.self,
        ]
    }()

    private static func placeholders(_ text: any PreparedStatementText.Type) -> Set<Int> {
        Set(text.sql.matches(of: /\$([0-9]+)/).compactMap { Int($0.output.1) })
    }

    @Test("each has its own name of at most 63 bytes, and declares a type for exactly the placeholders its text uses")
    func namesAndParameters() throws {
        let names = (Self.single + Self.completions).map { $0.name }
        #expect(Set(names).count == names.count)
        for text in Self.single + Self.completions {
            #expect(text.name.utf8.count <= 63, "\(text.name)")
            #expect(!text.sql.isEmpty, "\(text.name)")
            #expect(Self.placeholders(text).isSubset(of: Set(1...text.parameters.count)), "\(text.name)")
        }
        for text in Self.single + Self.completions {
            #expect(Self.placeholders(text) == Set(1...text.parameters.count), "\(text.name)")
        }
        let used = SignInCompletionStatement.texts.values.reduce(into: Set<String>()) { $0.formUnion($1.statement.names) }
        #expect(used == Set(SignInCompletionStatement.types.keys), "every parameter of the completion is used by some text")
        #expect(
            !SignInCompletionStatement.Text<SignInCompletionStatement.Biometric, SignInCompletionStatement.SignIn>.sql.contains("factor_failures"),
            "a biometric sign-in's text holds no lockout step"
        )
    }

    @Test("on SQLite, a statement run for every request is prepared once: binding new values never makes SQLite prepare it again")
    func preparedOnceOnSQLite() async throws {
        try await TestDatabase.sqlite.withFreshDatabase { path in
            try await TestServer.run(at: path) { _ in }  // the schema, by the server's migrations
            var connection: OpaquePointer?
            try #require(sqlite_nio_sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
            defer { sqlite_nio_sqlite3_close_v2(connection) }
            // SQLite cannot run PostgreSQL's data-modifying WITH; everything else runs on both.
            for text in Self.single {
                var statement: OpaquePointer?
                try #require(
                    sqlite_nio_sqlite3_prepare_v3(connection, text.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
                    "\(text.name)"
                )
                defer { sqlite_nio_sqlite3_finalize(statement) }
                for run in 0..<20 {
                    for (index, type) in text.parameters.enumerated() {
                        let place = Int32(index + 1)
                        switch type {
                        case .integer: sqlite_nio_sqlite3_bind_int64(statement, place, Int64(run))
                        case .text:
                            sqlite_nio_sqlite3_bind_text(statement, place, "value \(run)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                        case .bytes:
                            sqlite_nio_sqlite3_bind_blob(statement, place, [UInt8(run)], 1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                        }
                    }
                    while sqlite_nio_sqlite3_step(statement) == SQLITE_ROW {}
                    sqlite_nio_sqlite3_reset(statement)
                    sqlite_nio_sqlite3_clear_bindings(statement)
                }
                #expect(sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0) == 0, "\(text.name) is prepared again when rebound")
            }
        }
    }
}
