import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `bioauth serve` as an operator meets it: a real process, real signals, one-line errors.
@Suite("bioauth serve", .serialized)
struct ServeCommandTests {
    /// A file holding the in-process servers' PIN key (``ThrowawayPINKey``), written once per test run.
    static let pinKeyFile = try! ThrowawayPINKey.file()

    /// Starts `program arguments…` (through `launcher`, if any) with the in-process test servers'
    /// PIN key (which PostgreSQL needs) and a free metrics port, so that several can run at once.
    static func launch(
        _ arguments: [String],
        program: BioAuthProcess.Program = .bioauth,
        environment: [String: String] = [:],
        launcher: [String] = []
    ) throws -> BioAuthProcess {
        try BioAuthProcess(
            arguments,
            program: program,
            environment: ["BIOAUTH_PIN_KEY_FILE": pinKeyFile, "BIOAUTH_METRICS_PORT": "0"].merging(environment) { $1 },
            launcher: launcher
        )
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("serve answers over HTTP and shuts down cleanly on SIGTERM and on Ctrl-C", arguments: [SIGTERM, SIGINT])
    func cleanShutdown(signal: Int32) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("db.sqlite").path
        let server = try Self.launch(["serve", "--port", "0", "--database", database])
        let port = try await server.waitForPort()
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":"ok"}"#)
        kill(server.process.processIdentifier, signal)
        #expect(try await server.waitForExit() == 0, "stderr: \(server.stderr)")
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(!FileManager.default.fileExists(atPath: database + "-wal"), "a clean close checkpoints and removes the WAL")
    }

    @Test(
        "serve runs its HTTP connections on --event-loops threads, half the cores (at least one) by default",
        arguments: [["--event-loops", "3"], []]
    )
    func eventLoops(flag: [String]) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.launch(["serve", "--port", "0", "--database", folder.appendingPathComponent("loops.sqlite").path] + flag)
        defer { server.process.terminate() }
        let port = try await server.waitForPort()
        let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        // NIO names a group's threads NIO-ELT-<group>-#<loop>; the metrics listener uses NIO's shared (NIO-SGLTN-) ones.
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.process.processIdentifier)/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/task/\($0)/comm", encoding: .utf8) }
        let loops = names.filter { $0.hasPrefix("NIO-ELT-") }.count
        #expect(loops == (flag.isEmpty ? max(1, ProcessInfo.processInfo.activeProcessorCount / 2) : 3), "\(names)")
    }

    @Test("a port in use is one clear line, not a trace")
    func portInUse() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.launch(["serve", "--port", "0", "--database", folder.appendingPathComponent("a.sqlite").path])
        let port = try await first.waitForPort()
        defer { first.process.terminate() }
        let second = try Self.launch(["serve", "--port", "\(port)", "--database", folder.appendingPathComponent("b.sqlite").path])
        #expect(try await second.waitForExit() == 1)
        // Log lines (stderr) may come first; the error is one line, and the last.
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.last == "Error: port \(port) on 127.0.0.1 is already in use", "stderr: \(second.stderr)")
        #expect(lines.filter { !$0.contains(" info bioauth: ") }.count == 1, "stderr: \(second.stderr)")
    }

    @Test("an unusable database path is one clear line", arguments: ["/nonexistent-folder/db.sqlite", "/"])
    func unusableDatabasePath(path: String) async throws {
        let server = try Self.launch(["serve", "--port", "0", "--database", path])
        #expect(try await server.waitForExit() == 1)
        let lines = server.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: cannot open database at \(path)"), "stderr: \(server.stderr)")
        #expect(!server.stderr.contains("Backtrac"))
    }

    @Test("an unreachable PostgreSQL is one clear line, without the password")
    func unreachablePostgres() async throws {
        // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
        let server = try Self.launch(["serve", "--port", "0", "--database", "postgres://bioauth:s3cret-pw@127.0.0.1:1/bioauth?sslmode=disable"])
        #expect(try await server.waitForExit(timeout: .seconds(60)) == 1)
        let lines = server.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].hasPrefix("Error: cannot open database at postgres://bioauth:***@127.0.0.1:1/bioauth"),
            "stderr: \(server.stderr)"
        )
        #expect(!server.stderr.contains("s3cret-pw") && !server.stdout.contains("s3cret-pw"))
    }

    @Test(
        "an invalid flag value is refused with a usage error",
        arguments: [
            ["--port", "abc"], ["--port", "70000"], ["--session-minutes", "2"], ["--challenge-ttl", "0"], ["--no-such-flag"],
            ["--requests-per-minute", "0"], ["--max-pending-registrations", "0"], ["--challenges-per-minute", "0"],
            ["--request-timeout", "0"], ["--max-header-bytes", "10"], ["--max-registrations", "0"],
            ["--purge-interval", "0"], ["--session-retention-days", "-1"], ["--database-connections", "0"],
            ["--port", "9000", "--metrics-port", "9000"],
        ]
    )
    func invalidFlag(arguments: [String]) async throws {
        let server = try Self.launch(["serve"] + arguments)
        #expect(try await server.waitForExit() == 64)
        #expect(server.stderr.hasPrefix("Error: "), "stderr: \(server.stderr)")
        #expect(!server.stderr.contains("Backtrac"))
    }

    @Test("settings come from environment variables when no flag is given")
    func environmentVariables() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("env.sqlite").path
        let server = try Self.launch(
            ["serve"],
            environment: [
                "BIOAUTH_PORT": "0", "BIOAUTH_DATABASE": database, "BIOAUTH_RELYING_PARTY": "env.example",
            ]
        )
        _ = try await server.waitForPort()
        #expect(server.stdout.contains("(database \(database), relying party env.example)"))
        server.process.terminate()
        _ = try await server.waitForExit()
        let invalid = try Self.launch(["serve"], environment: ["BIOAUTH_PORT": "eighty"])
        #expect(try await invalid.waitForExit() == 64)
        #expect(invalid.stderr.contains("BIOAUTH_PORT=eighty is not valid."))
    }

    @Test("metrics are served on their own listener (port 0 printed at start), not on the API's")
    func metricsListener() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.launch(["serve", "--port", "0", "--metrics-port", "0", "--database", folder.appendingPathComponent("m.sqlite").path])
        defer { server.process.terminate() }
        let port = try await server.waitForPort()
        let metrics = try await server.waitForMetricsPort(timeout: .seconds(5))
        #expect(metrics != port)
        let (body, scrape) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(metrics)/metrics")!)
        #expect((scrape as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("bioauth_active_sessions"))
        let (_, api) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        #expect((api as? HTTPURLResponse)?.statusCode == 404)
    }
}
