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
    /// The statements, as the server's tables write them (captured from a trace of a sign-in).
    static let challengeStatements = [
        """
        SELECT (SELECT credential_epoch FROM users WHERE users.id = registrations.user_id) FROM registrations
        WHERE id = $1 AND status = 'active'
        """
    ]
    static let completionStatements = [
        "INSERT INTO spent_challenges (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id",
        """
        SELECT CASE WHEN credential_epoch <> $1 THEN 'stale' WHEN password_change_required <> 0 AND $2 <> 'password' THEN 'password_change_required' \
        WHEN $2 = 'password' AND password_expires_at IS NOT NULL AND password_expires_at <= $3 THEN 'stale' ELSE 'current' END AS state,
               username, created_at, username_key, password_change_required FROM users WHERE id = $4
        """,
        """
        UPDATE registrations SET last_used_at = $1, pin_hash = COALESCE($2, pin_hash)
        WHERE id = $3 AND user_id = $4 AND status = 'active' RETURNING id
        """,
        """
        INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at,
                              password_change_required, factors, step_up_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        """,
        "INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    ]

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

            try connection.run(challengeStatements[0], .text(account.registration))
            try connection.run("BEGIN IMMEDIATE")
            try connection.run(completionStatements[0], .text(challengeID))
            try connection.run(completionStatements[1], .integer(0), .text("biometric"), .integer(now), .text(account.user))
            try connection.run(completionStatements[2], .integer(now), .null, .text(account.registration), .text(account.user))
            try connection.run(
                completionStatements[3],
                .text(sessionID),
                .text(account.user),
                .blob(SecureRandom.bytes(32)),
                .text("biometric"),
                .text(account.registration),
                .null,
                .integer(now),
                .integer(now + 3_600_000),
                .integer(now),
                .integer(0),
                .text("biometric"),
                .integer(now)
            )
            try connection.run(
                completionStatements[4],
                .text(SecureRandom.identifier(.event)),
                .text(account.user),
                .text("biometric.sign_in"),
                .text("success"),
                .integer(now),
                .text(account.registration),
                .text(sessionID)
            )
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

        /// Runs `sql` with `values` bound to ?1, ?2, …, stepping through every row.
        func run(_ sql: String, _ values: Value...) throws {
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
