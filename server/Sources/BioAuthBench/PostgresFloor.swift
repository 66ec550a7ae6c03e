import BioAuthServer
import Foundation

/// The floor for PostgreSQL: pgbench running a biometric sign-in's reads and writes at the sweep's
/// client counts.
///
/// The script is one sign-in, as one pgbench transaction: the challenge's registration check with
/// its owner's credential epoch (issuing writes nothing) and the completion's transaction
/// (durable: the spent id, the account read `FOR KEY SHARE`, the registration's last use, the
/// session, the audit event), one statement per round trip, as a client library without
/// pipelining sends them; not the registration's key, which the server reads once per device and
/// remembers. The statements are the server's own (`SignInStatements.biometric` in BioAuthServer),
/// each parameter replaced by a pgbench expression; pgbench prepares each once per connection
/// (`-M prepared`). The server sends the completion as one statement of the same steps; reaching
/// the floor with fewer round trips is the server's work.
enum PostgresFloor {
    /// The pgbench script for accounts numbered 1 to `accounts` (see ``BenchmarkDatabase/floorIdentifiers(_:)``).
    static func script(accounts: Int) -> String {
        // pgbench binds :n and :c as parameters of unknown type; the casts pick the functions.
        let registration = "('reg_' || lpad(to_hex(:n::bigint), 32, '0'))"
        let now = "((extract(epoch FROM clock_timestamp()) * 1000)::bigint)"
        let session = "('ses_' || lpad(to_hex(:c::bigint), 32, '0'))"
        let expressions = [
            "credential_id": registration, "user_id": "('usr_' || lpad(to_hex(:n::bigint), 32, '0'))",
            "challenge_id": "('chl_' || lpad(to_hex(\(now) + 120000), 12, '0') || lpad(to_hex(:c::bigint), 100, '0'))",
            "epoch": "0", "factor": "'biometric'", "now": now, "new_pin_hash": "NULL::text", "session_id": session,
            "token_digest": "sha256(('s' || :c::bigint)::bytea)", "credential_kind": "'device_key'", "expires_at": "(\(now) + 3600000)",
            "restricted_expires_at": "(\(now) + 3600000)", "password_change_required": "0", "steps_up": "1",
            "event_id": "('evt_' || lpad(to_hex(:c::bigint), 32, '0'))", "event_kind": "'biometric.sign_in'", "outcome": "'success'",
        ]
        let statements = SignInStatements.biometric(accountLock: "FOR KEY SHARE")
        let completion = statements.completion.map { $0.substituting(expressions) }
        return
            ([
                "\\set n random(1, \(accounts))", "\\set c random(1, 4611686018427387903)", statements.challenge.substituting(expressions) + ";",
                "BEGIN;",
            ]
            + completion.map { $0 + ";" } + ["COMMIT;", ""]).joined(separator: "\n")
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
