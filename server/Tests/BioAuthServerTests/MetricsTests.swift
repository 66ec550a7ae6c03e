import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import BioAuthServer

/// Metrics live on a listener of their own, and a scrape reads memory only.
@Suite("Metrics")
struct MetricsTests {
    /// Scrapes `server`'s metrics listener over loopback.
    private static func scrape(_ server: TestServer) async throws -> (status: HTTPResponse.Status, text: String, contentType: String?) {
        try await server.server.metricsApplication().test(.live) { client in
            let response = try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
            return (response.status, String(buffer: response.body), response.headers[.contentType])
        }
    }

    @Test("the metrics listener counts requests by route and status, ceremonies, lockouts and live sessions, and shows no secrets")
    func prometheusExposition() async throws {
        try await TestServer.run(configure: { $0.lockoutThreshold = 2 }) { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let signIn = try await server.api.biometricSignIn(key, registrationID: registration.id)
            for _ in 0..<3 {
                try await server.api.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: account.user.username, password: "wrong password!")
                )
            }
            try await server.api.call(.get, "/no/such/path")
            for unusual in ["PROPFIND", "MKCOL"] {
                try await server.api.call(try #require(HTTPRequest.Method(unusual)), "/no/such/path")
            }
            try await server.server.refreshMetrics()
            let answer = try await Self.scrape(server)
            #expect(answer.status == .ok)
            #expect(answer.contentType?.hasPrefix("text/plain") == true)
            let text = answer.text
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"bioauth_http_requests_total{route="/v1/users",method="POST",status="201"} 1"#), "\(text)")
            #expect(lines.contains(#"bioauth_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
            // A client's method names cannot grow the metrics: the unusual ones are one `other`.
            #expect(lines.contains(#"bioauth_http_requests_total{route="unmatched",method="other",status="404"} 2"#), "\(text)")
            #expect(!text.contains("PROPFIND") && !text.contains("MKCOL"))
            #expect(lines.contains(#"bioauth_ceremonies_total{ceremony="registration",outcome="success"} 1"#))
            #expect(lines.contains(#"bioauth_ceremonies_total{ceremony="authentication",outcome="success"} 1"#))
            #expect(lines.contains(#"bioauth_lockouts_total{factor="password"} 1"#))
            #expect(lines.contains(#"bioauth_locked_attempts_total{factor="password"} 1"#))
            #expect(lines.contains("bioauth_active_sessions 2.0"))
            #expect(text.contains("bioauth_http_request_duration_seconds_bucket{"))
            for secret in [account.sessionToken, signIn.sessionToken, "correct horse battery", account.user.username, account.user.id] {
                #expect(!text.contains(secret))
            }
        }
    }

    @Test("the metrics show how long database work waited, and SQLite's group commits with the transactions each carried")
    func databaseWaitsAndCommits() async throws {
        try await TestServer.run { server in
            let (_, key, registration) = try await server.api.newAccountWithKey()
            let before = Self.counts(try await Self.scrape(server).text)
            _ = try await server.api.biometricSignIn(key, registrationID: registration.id)
            let after = Self.counts(try await Self.scrape(server).text)
            func added(_ series: String) -> Double { (after[series] ?? 0) - (before[series] ?? 0) }
            // The challenge reads its registration; the completion is one transaction (SQLite) or
            // one writing statement (PostgreSQL, SignInCompletionStatement).
            #expect(added(#"bioauth_database_wait_seconds_count{work="read"}"#) >= 1, "\(after)")
            let completion = server.server.database.flavor == .sqlite ? "transaction" : "write"
            #expect(added(#"bioauth_database_wait_seconds_count{work="\#(completion)"}"#) >= 1)
            if server.server.database.flavor == .sqlite {
                #expect(added("bioauth_database_commit_seconds_count") >= 1)
                #expect(added("bioauth_database_commit_transactions_count") == added("bioauth_database_commit_seconds_count"))
                #expect(added("bioauth_database_commit_transactions_sum") >= added("bioauth_database_commit_seconds_count"))
            } else {
                #expect(after["bioauth_database_commit_seconds_count"] ?? 0 == 0, "PostgreSQL commits are not SQLite's groups")
            }
        }
    }

    /// The `_count` and `_sum` lines of an exposition, by series.
    private static func counts(_ text: String) -> [String: Double] {
        var counts: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            let name = parts[0].prefix { $0 != "{" }
            guard name.hasSuffix("_count") || name.hasSuffix("_sum") else { continue }
            counts[String(parts[0])] = value
        }
        return counts
    }

    @Test("the public API listener does not serve /metrics")
    func notOnThePublicListener() async throws {
        try await TestServer.run { server in
            try await server.api.expectError(.notFound, .get, "/metrics")
        }
    }

    @Test("a scrape touches no database: it answers while the sessions table is locked by a long transaction")
    func scrapeNeedsNoDatabase() async throws {
        try await TestServer.run { server in
            _ = try await server.api.newAccount()
            try await server.server.refreshMetrics()
            let database = server.server.database
            let state = Mutex((held: false, released: false))
            // SQLite runs one transaction at a time; on PostgreSQL an exclusive lock stops any read.
            let holder = Task {
                try await database.transaction { db in
                    if database.flavor == .postgres { try await db.raw("LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE").run() }
                    state.withLock { $0.held = true }
                    try await Task.sleep(for: .seconds(3))
                }
                state.withLock { $0.released = true }
            }
            while !(state.withLock { $0.held }) { try await Task.sleep(for: .milliseconds(10)) }
            let answer = try await Self.scrape(server)
            let released = state.withLock { $0.released }
            #expect(!released, "the scrape waited for the database")
            #expect(answer.status == .ok)
            #expect(answer.text.contains("bioauth_active_sessions 1.0"))
            try await holder.value
        }
    }
}
