import BioAuthServer
import Foundation
// SQLite's C API, the same library (sqlite-nio's vendored copy) the server links.
import VaporCSQLite

/// The floor for SQLite: a biometric sign-in's database work from a minimal program over
/// SQLite's C API, with no server code in the loop.
///
/// The database is made by the server's migrations (the same schema and indexes) and seeded with
/// the given accounts; the loop then runs, on one thread, the statements the server runs for one
/// sign-in, on one connection with the server's settings (``SQLiteConnectionSettings``):
///
/// - the challenge: the registration check with its owner's credential epoch (issuing writes nothing);
/// - (not the registration's key: the server reads it once per device and remembers it);
/// - the completion: `BEGIN IMMEDIATE`, the challenge's spent id, the account and its state, the
///   registration's last use, the session's insert, the audit event's insert, `COMMIT`.
///
/// One durable commit per sign-in: what the server would reach if its own code cost nothing and
/// it committed each sign-in on its own.
enum SQLiteFloor {
    /// The statements, as the server's tables write them.
    static let statements = SignInStatements.biometric()

    /// Sign-ins per second on the database file at `path` (already migrated and seeded; see
    /// ``BenchmarkDatabase/seedFloorAccounts(count:)``) over `duration`.
    static func signIns(path: String, accounts: [(user: String, registration: String)], duration: Duration) async throws -> RateProbe.Count {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try run(path: path, accounts: accounts, duration: duration) })
            }
            thread.name = "sqlite-floor"
            thread.start()
        }
    }

    private static func run(path: String, accounts: [(user: String, registration: String)], duration: Duration) throws -> RateProbe.Count {
        let connection = try Connection(path: path, settings: SQLiteConnectionSettings.pragmas(synchronous: "FULL"))
        defer { connection.close() }

        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        var done = 0
        while clock.now < deadline {
            let account = accounts[done % accounts.count]
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            // As long as the server's, and like it beginning with the expiry.
            let challengeID =
                SecureRandom.identifier(.challenge, at: Date(millisecondsSince1970: now + 120_000)) + Hex.lowercase(SecureRandom.bytes(40))
            let sessionID = SecureRandom.identifier(.session)

            let bound: [String: Value] = [
                "credential_id": .text(account.registration), "challenge_id": .text(challengeID), "epoch": .integer(0),
                "factor": .text("biometric"), "now": .integer(now), "user_id": .text(account.user), "new_pin_hash": .null,
                "session_id": .text(sessionID), "token_digest": .blob(Data(SecureRandom.bytes(32))), "credential_kind": .text("device_key"),
                "expires_at": .integer(now + 3_600_000), "restricted_expires_at": .integer(now + 3_600_000),
                "password_change_required": .integer(0), "steps_up": .integer(1), "event_id": .text(SecureRandom.identifier(.event)),
                "event_kind": .text("biometric.sign_in"), "outcome": .text("success"),
            ]
            try connection.run(statements.challenge, bound)
            try connection.run("BEGIN IMMEDIATE")
            for statement in statements.completion { try connection.run(statement, bound) }
            try connection.run("COMMIT")
            done += 1
        }
        return RateProbe.Count(operations: done, seconds: start.duration(to: clock.now).timeInterval)
    }

    /// A bound value.
    enum Value {
        case integer(Int64)
        case text(String)
        case blob(Data)
        case null
    }

    /// One connection and its prepared statements; nothing more than the loop needs.
    private final class Connection {
        private var handle: OpaquePointer?
        private var statements: [String: OpaquePointer] = [:]

        init(path: String, settings: [String]) throws {
            guard sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                defer { sqlite_nio_sqlite3_close(handle) }
                throw BenchFailure("floor: cannot open \(path)")
            }
            for setting in settings { try run(setting) }
        }

        func close() {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            sqlite_nio_sqlite3_close(handle)
        }

        /// Runs `statement` with its parameters taken from `bound` by name.
        func run(_ statement: NamedSQL, _ bound: [String: Value]) throws {
            try run(
                statement.text,
                statement.names.map { name in
                    guard let value = bound[name] else { throw BenchFailure("floor: :\(name) is not bound") }
                    return value
                }
            )
        }

        /// Runs `sql` with `values` bound to ?1, ?2, …, stepping through every row.
        func run(_ sql: String, _ values: Value...) throws {
            try run(sql, values)
        }

        /// Runs `sql` with `values` bound to ?1, ?2, …, stepping through every row.
        func run(_ sql: String, _ values: [Value]) throws {
            let statement = try prepared(sql)
            defer { sqlite_nio_sqlite3_reset(statement) }
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .integer(let integer): sqlite_nio_sqlite3_bind_int64(statement, position, integer)
                case .text(let text): sqlite_nio_sqlite3_bind_text(statement, position, text, -1, transient)
                case .blob(let data):
                    _ = data.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), transient) }
                case .null: sqlite_nio_sqlite3_bind_null(statement, position)
                }
            }
            var stepped = sqlite_nio_sqlite3_step(statement)
            while stepped == SQLITE_ROW { stepped = sqlite_nio_sqlite3_step(statement) }
            guard stepped == SQLITE_DONE else { throw failure(sql) }
        }

        private func prepared(_ sql: String) throws -> OpaquePointer {
            if let statement = statements[sql] { return statement }
            var statement: OpaquePointer?
            guard sqlite_nio_sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
            statements[sql] = statement
            return statement
        }

        private func failure(_ sql: String) -> BenchFailure {
            BenchFailure("floor: \(String(cString: sqlite_nio_sqlite3_errmsg(handle))) in \(sql.prefix(60))")
        }
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
