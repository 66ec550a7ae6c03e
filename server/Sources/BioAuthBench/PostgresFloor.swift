import Foundation

/// The floor for PostgreSQL: pgbench running a biometric sign-in's reads and writes at the sweep's
/// client counts.
///
/// The script is one sign-in, as one pgbench transaction: the challenge's registration check with
/// its owner's credential epoch (issuing writes nothing) and the completion's transaction
/// (durable: the spent id, the account read `FOR KEY SHARE`, the registration's last use, the
/// session, the audit event), one statement per round trip, as a client library without
/// pipelining sends them; not the registration's key, which the server reads once per device and
/// remembers. pgbench prepares each statement once per connection (`-M prepared`). The server
/// sends the completion as one statement (`SignInCompletionStatement` in BioAuthServer); reaching
/// the floor with fewer round trips is the server's work.
enum PostgresFloor {
    /// The pgbench script for accounts numbered 1 to `accounts` (see ``BenchmarkDatabase/floorIdentifiers(_:)``).
    static func script(accounts: Int) -> String {
        // pgbench binds :n and :c as parameters of unknown type; the casts pick the functions.
        let registration = "'reg_' || lpad(to_hex(:n::bigint), 32, '0')"
        let user = "'usr_' || lpad(to_hex(:n::bigint), 32, '0')"
        let now = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
        return """
            \\set n random(1, \(accounts))
            \\set c random(1, 4611686018427387903)
            SELECT (SELECT credential_epoch FROM users WHERE users.id = registrations.user_id) FROM registrations WHERE id = \(registration) AND status = 'active';
            BEGIN;
            INSERT INTO spent_challenges (id) VALUES ('chl_' || lpad(to_hex(\(now) + 120000), 12, '0') || lpad(to_hex(:c::bigint), 100, '0')) ON CONFLICT (id) DO NOTHING RETURNING id;
            SELECT id, username, username_key, created_at, password_change_required, CASE WHEN credential_epoch <> 0 THEN 'stale' ELSE 'current' END AS state FROM users WHERE id = \(user) FOR KEY SHARE;
            UPDATE registrations SET last_used_at = \(now), pin_hash = COALESCE(NULL, pin_hash) WHERE id = \(registration) AND user_id = \(user) AND status = 'active' RETURNING user_id;
            INSERT INTO sessions (id, user_id, token_hash, method, registration_id, passkey_id, created_at, expires_at, authenticated_at, password_change_required, factors, step_up_at) VALUES ('ses_' || lpad(to_hex(:c::bigint), 32, '0'), \(user), sha256(('s' || :c::bigint)::bytea), 'biometric', \(registration), NULL, \(now), \(now) + 3600000, \(now), 0, 'biometric', \(now));
            INSERT INTO audit_events (id, user_id, type, outcome, created_at, registration_id, session_id) VALUES ('evt_' || lpad(to_hex(:c::bigint), 32, '0'), \(user), 'biometric.sign_in', 'success', \(now), \(registration), 'ses_' || lpad(to_hex(:c::bigint), 32, '0'));
            COMMIT;

            """
    }

    /// Sign-ins per second from pgbench with `clients` connections to the database at `url`,
    /// over about `duration`.
    ///
    /// pgbench's own `-T` ends a run with `SIGALRM`, which a child of this process may inherit
    /// blocked (it then never stops), so the run is sized in transactions instead: a short
    /// calibration, then as many sign-ins per client as `duration` allows at that rate.
    static func signIns(url: String, accounts: Int, clients: Int, duration: Duration) async throws -> Double {
        let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-floor-\(getpid())-\(clients).sql")
        try script(accounts: accounts).write(to: scriptURL, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let threads = min(clients, ProcessInfo.processInfo.activeProcessorCount)
        func rate(transactionsPerClient: Int) async throws -> Double {
            let output = try await run(
                pgbench(),
                [
                    "-n", "-M", "prepared", "-c", "\(clients)", "-j", "\(threads)",
                    "-t", "\(transactionsPerClient)", "-f", scriptURL.path, url,
                ]
            )
            // "tps = 1234.567890 (without initial connection time)"
            guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
                let tps = Double(line.dropFirst(6).prefix { $0 != " " })
            else {
                throw BenchFailure("pgbench printed no rate: \(output.suffix(400))")
            }
            return tps
        }
        let estimate = try await rate(transactionsPerClient: 10)
        let perClient = Int(estimate * duration.timeInterval / Double(clients))
        return try await rate(transactionsPerClient: max(10, perClient))
    }

    /// pgbench from PATH, or from the PostgreSQL installation Debian puts under /usr/lib/postgresql.
    static func pgbench() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates =
            path.split(separator: ":").map { "\($0)/pgbench" }
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed().map {
                "/usr/lib/postgresql/\($0)/bin/pgbench"
            }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchFailure("pgbench not found (PATH or /usr/lib/postgresql/*/bin): the PostgreSQL floor needs it")
        }
        return found
    }

    private static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.terminationHandler = { process in
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                if process.terminationStatus == 0 {
                    continuation.resume(returning: text)
                } else {
                    continuation.resume(throwing: BenchFailure("pgbench exited with \(process.terminationStatus): \(text.suffix(600))"))
                }
            }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
