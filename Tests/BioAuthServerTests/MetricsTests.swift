import BioAuthProtocol
import Foundation
import Testing

@Suite("Metrics")
struct MetricsTests {
    @Test("GET /metrics counts requests by route and status, ceremonies, lockouts and live sessions, and shows no secrets")
    func prometheusExposition() async throws {
        try await TestServer.run(configure: { $0.lockoutThreshold = 2 }) { server in
            let account = try await server.api.newAccount()
            let key = TestDeviceKey.es256()
            let registration = try await server.api.register(key, token: account.sessionToken)
            let signIn = try await server.api.biometricSignIn(key, registrationID: registration.id)
            for _ in 0..<3 {
                try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: account.user.username, password: "wrong password!"))
            }
            try await server.api.call(.get, "/no/such/path")
            let answer = try await server.api.call(.get, "/metrics")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(decoding: answer.body, as: UTF8.self)
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"bioauth_http_requests_total{route="/v1/users",method="POST",status="201"} 1"#), "\(text)")
            #expect(lines.contains(#"bioauth_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
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
}
