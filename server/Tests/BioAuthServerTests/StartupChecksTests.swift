import BioAuthTesting
import Foundation
import Logging
import Testing

@testable import BioAuthServer

/// An operator's mistake is named for what it is, before the server touches its database.
@Suite("bioauth serve: start-up checks")
struct StartupChecksTests {
    /// Whether the database at `location` is as it was made: no SQLite file, or no table in the
    /// PostgreSQL database.
    private func isUntouched(_ location: String) async throws -> Bool {
        guard DatabaseLocation.isPostgres(location) else { return !FileManager.default.fileExists(atPath: location) }
        let database = try await PostgresDatabaseProvider.open(
            url: location,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        defer { Task { try? await database.shutdown() } }
        return try await DatabaseSnapshot.read(postgres: database).tables.isEmpty
    }

    static let allowedApp = "com.example.bank:" + String(repeating: "ab", count: 32)

    @Test(
        "a setting that cannot work (trust roots, key attestation without an allowed app, its roots or status list unreadable, a PostgreSQL server without --pin-key-file) is one line and touches no database"
    )
    func settingsBeforeDatabase() async throws {
        var cases: [(arguments: [String], pinKeyFile: Bool, message: String)] = [
            (["--webauthn-attestation", "direct"], true, "Error: --webauthn-attestation direct needs --webauthn-trust-roots"),
            (
                ["--webauthn-attestation", "direct", "--webauthn-trust-roots", "/nonexistent/roots.pem"], true,
                "Error: --webauthn-trust-roots /nonexistent/roots.pem is not a readable PEM file"
            ),
            (["--key-attestation", "require"], true, "Error: --key-attestation require needs --android-allowed-app or --app-attest-app-id"),
            (
                ["--key-attestation", "prefer", "--android-allowed-app", Self.allowedApp, "--android-attestation-roots", "/nonexistent/roots.pem"],
                true,
                "Error: --android-attestation-roots /nonexistent/roots.pem is not a readable PEM file"
            ),
            (
                ["--key-attestation", "require", "--android-allowed-app", Self.allowedApp, "--android-revocations", "/nonexistent/status.json"], true,
                "Error: --android-revocations /nonexistent/status.json is not a readable attestation status list"
            ),
        ]
        if TestDatabase.current == .postgres {
            cases.append(([], false, "Error: a PostgreSQL server needs --pin-key-file"))
        }
        for (arguments, pinKeyFile, message) in cases {
            try await TestDatabase.current.withFreshDatabase { location in
                let server = try BioAuthProcess(
                    ["serve", "--port", "0", "--metrics-port", "0", "--database", location] + arguments,
                    environment: pinKeyFile ? ["BIOAUTH_PIN_KEY_FILE": ServeCommandTests.pinKeyFile] : [:]
                )
                #expect(try await server.waitForExit(timeout: .seconds(60)) == 1, "\(arguments)")
                let lines = server.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix(message), "stderr: \(server.stderr)")
                #expect(try await isUntouched(location), "\(arguments): the database was opened or migrated")
            }
        }
    }

    @Test("two instances on one host: the second names the metrics port it could not bind, and never says it is listening")
    func metricsPortInUse() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let first = try ServeCommandTests.launch(["serve", "--port", "0", "--database", location])
            defer { first.process.terminate() }
            _ = try await first.waitForPort()
            let metrics = try await first.waitForMetricsPort()
            let second = try ServeCommandTests.launch([
                "serve", "--port", "0", "--metrics-port", "\(metrics)", "--database", location + (TestDatabase.current == .sqlite ? "-2" : ""),
            ])
            #expect(try await second.waitForExit(timeout: .seconds(60)) == 1)
            let lines = second.stderr.split(separator: "\n")
            #expect(lines.contains("Error: metrics port \(metrics) (--metrics-port) on 127.0.0.1 is already in use"), "stderr: \(second.stderr)")
            #expect(!second.stdout.contains("listening"), "stdout: \(second.stdout)")
        }
    }

    @Test(
        "the PIN key beside the SQLite file is a start-up warning outside development (relying party localhost)",
        arguments: ["example.com", "localhost"]
    )
    func pinKeyBesideDatabase(relyingParty: String) async throws {
        try await TestDatabase.sqlite.withFreshDatabase { path in
            let server = try BioAuthProcess(["serve", "--port", "0", "--metrics-port", "0", "--database", path, "--relying-party", relyingParty])
            defer { server.process.terminate() }
            _ = try await server.waitForPort()
            let warned = server.stderr.split(separator: "\n").contains {
                $0.contains(" warning ") && $0.contains("the PIN key is \(path).pin-key, beside the database")
            }
            #expect(warned == (relyingParty != "localhost"), "stderr: \(server.stderr)")
            #expect(FileManager.default.fileExists(atPath: path + ".pin-key"))
        }
    }

    @Test("a connection cap the descriptor limit cannot hold is refused at start, saying what to change; the default fits it")
    func connectionCapFitsDescriptors() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let tooMany = try ServeCommandTests.launch(
                ["serve", "--port", "0", "--database", location, "--max-connections", "2000"],
                launcher: ["/usr/bin/prlimit", "--nofile=1024"]
            )
            #expect(try await tooMany.waitForExit(timeout: .seconds(60)) == 1)
            let lines = tooMany.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && lines[0].hasPrefix("Error: --max-connections 2000 needs ") && lines[0].contains("the limit is 1024")
                    && lines[0].contains("LimitNOFILE"),
                "stderr: \(tooMany.stderr)"
            )
            #expect(try await isUntouched(location))
            let fitted = try ServeCommandTests.launch(
                ["serve", "--port", "0", "--database", location],
                launcher: ["/usr/bin/prlimit", "--nofile=1024"]
            )
            defer { fitted.process.terminate() }
            _ = try await fitted.waitForPort()
        }
    }

    @Test("the server raises its soft descriptor limit to the hard limit at start")
    func raisesSoftLimit() async throws {
        try await TestDatabase.sqlite.withFreshDatabase { path in
            let server = try BioAuthProcess(
                ["serve", "--port", "0", "--metrics-port", "0", "--database", path],
                launcher: ["/usr/bin/prlimit", "--nofile=512:4096"]
            )
            defer { server.process.terminate() }
            _ = try await server.waitForPort()
            let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
            let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init) ?? ""
            #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["4096", "4096"], "\(line)")
        }
    }
}
