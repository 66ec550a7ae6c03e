import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// The audit trail stays readable and bounded, whoever knows a registration id or a username.
@Suite("Audit trail")
struct AuditTrailTests {
    @Test("a stranger's bad signatures for someone's registration are counted per hour, not written one row each")
    func strangerFailuresAreCounted() async throws {
        try await TestServer.run(configure: { $0.challengesPerRegistrationPerMinute = 1_000 }) { server in
            let account = try await server.api.newAccount()
            let registration = try await server.api.register(.es256(), token: account.sessionToken)
            for _ in 0..<40 {
                let forged = try await server.api.signedAuthentication(.es256(), registrationID: registration.id)
                try await server.api.expectError(.signatureInvalid, .post, "/v1/sessions/biometric", json: forged)
            }
            let snapshot = try await server.snapshot()
            #expect(snapshot.tables["audit_tallies"]?.count == 1)
            server.clock.advance(seconds: 3600)
            let forged = try await server.api.signedAuthentication(.es256(), registrationID: registration.id)
            try await server.api.expectError(.signatureInvalid, .post, "/v1/sessions/biometric", json: forged)
            let owner = try await server.api.signIn(account.user.username)
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: owner.sessionToken).events
            let counted = events.filter { $0.type == .biometricSignIn && $0.outcome == .failure }
            #expect(counted.map(\.count) == [1, 40], "newest first: one row per hour")
            #expect(counted.allSatisfy { $0.registrationID == registration.id })
        }
    }

    @Test("failed password sign-ins show in the trail as counted events, those before the account existed do not")
    func passwordFailuresAreCounted() async throws {
        try await TestServer.run { server in
            try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: "late-comer", password: "wrong password"))
            server.clock.advance(seconds: 3601)
            let user = try await server.api.signUp("late-comer")
            for _ in 0..<2 {
                try await server.api.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: user.username, password: "wrong password")
                )
            }
            let session = try await server.api.signIn(user.username)
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: session.sessionToken).events
            let failures = events.filter { $0.type == .passwordSignIn && $0.outcome == .failure }
            #expect(failures.map(\.count) == [2], "one counted row for the hour; the guess before the account existed is not its")
        }
    }

    @Test("audit events and counted failures are purged after the retention period")
    func auditRetention() async throws {
        try await TestServer.run(configure: { $0.auditRetention = .seconds(30 * 86_400) }) { server in
            let account = try await server.api.newAccount()
            try await server.api.call(
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: "wrong password")
            )
            server.clock.advance(seconds: 30 * 86_400 + 1)
            let fresh = try await server.api.signIn(account.user.username, minutes: 60)
            let report = try await server.server.purge()
            #expect(report.auditEvents == 3, "sign-up, first sign-in, the counted failure")
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: fresh.sessionToken).events
            #expect(events.map(\.type) == [.passwordSignIn])
        }
    }
}
