import Foundation
import Logging
import SQLKit
import Testing

@testable import BioAuthServer

/// PostgreSQL over TLS: verify-full and verify-ca with a CA file, and never plain text to a host
/// that is not this machine unless `sslmode=disable` asks for it.
@Suite("PostgreSQL TLS")
struct PostgresTLSTests {
    @Test(
        "what each sslmode gives, for a loopback and a remote host",
        arguments: [
            ("db.internal", nil as String?, PostgresTLSPolicy.Mode.required, true),
            ("db.internal", "verify-full", .required, true),
            ("db.internal", "require", .required, true),
            ("db.internal", "verify-ca", .required, false),
            ("db.internal", "disable", .plain, true),
            ("10.1.2.3", nil, .required, true),
            ("127.0.0.1", nil, .preferred, true),
            ("localhost", "prefer", .preferred, true),
            ("[::1]", nil, .preferred, true),
            ("127.0.0.1", "disable", .plain, true),
        ]
    )
    func decisionTable(host: String, sslmode: String?, mode: PostgresTLSPolicy.Mode, checksHostName: Bool) throws {
        let policy = try PostgresTLSPolicy(host: host, sslmode: sslmode, rootCertificateFile: nil)
        #expect(policy.mode == mode)
        #expect(policy.checksHostName == checksHostName)
    }

    @Test(
        "a setting that could fall back to plain text for a remote host, or that cannot be used, refuses to start",
        arguments: [("db.internal", "prefer"), ("10.1.2.3", "allow"), ("128.0.0.1", "prefer"), ("db.internal", "verify-everything")]
    )
    func refusals(host: String, sslmode: String) {
        #expect(throws: PostgresTLSPolicy.Refusal.self) { try PostgresTLSPolicy(host: host, sslmode: sslmode, rootCertificateFile: nil) }
    }

    @Test("an unreadable sslrootcert refuses to start, in one line")
    func unreadableRootCertificate() {
        #expect(throws: PostgresDatabaseProvider.OpenError.self) {
            _ = try PostgresDatabaseProvider.configuration(
                url: "postgres://u:p@db.internal/x?sslmode=verify-full&sslrootcert=/nonexistent/ca.crt",
                maxConnections: 1
            )
        }
    }

    /// The suite's PostgreSQL, reached as `host` with these TLS settings.
    private static func connects(host: String, query: String) async -> Bool {
        guard let base = TestDatabase.postgresURL, var components = URLComponents(string: base) else { return false }
        components.host = host
        components.query = query
        let logger = Logger(label: "tls-test", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            let database = try await PostgresDatabaseProvider.open(url: components.string!, maxConnections: 1, logger: logger)
            let ssl = try await database.withDatabase { db in
                try await db.raw("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first()?.decode(column: "ssl", as: Bool.self)
            }
            try await database.shutdown()
            return ssl == true
        } catch {
            return false
        }
    }

    @Test(
        "verify-full connects with the right CA and host name; a wrong CA or a name not in the certificate fails; verify-ca does not check the name",
        .enabled(if: TestDatabase.current == .postgres && ProcessInfo.processInfo.environment["BIOAUTH_TEST_POSTGRES_CA"] != nil)
    )
    func realServer() async throws {
        let environment = ProcessInfo.processInfo.environment
        let ca = try #require(environment["BIOAUTH_TEST_POSTGRES_CA"])
        let other = try #require(environment["BIOAUTH_TEST_POSTGRES_OTHER_CA"])
        #expect(await Self.connects(host: "localhost", query: "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(await !Self.connects(host: "localhost", query: "sslmode=verify-full&sslrootcert=\(other)"))
        #expect(await !Self.connects(host: "localhost", query: "sslmode=verify-full"), "the system's roots do not know the test CA")
        #expect(await !Self.connects(host: "127.0.0.1", query: "sslmode=verify-full&sslrootcert=\(ca)"), "the certificate names localhost only")
        #expect(await Self.connects(host: "127.0.0.1", query: "sslmode=verify-ca&sslrootcert=\(ca)"))
    }
}
