import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// Changing the password, and signing out everywhere else.
@Suite("Password change and sign-out everywhere")
struct PasswordChangeTests {
    @Test("a password change ends every other session of the user and keeps the caller's")
    func passwordChangeEndsOtherSessions() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let other = try await server.api.signIn(account.user.username)
            let key = SoftwareDeviceKey.es256()
            let registration = try await server.api.register(key, token: account.sessionToken)
            let biometric = try await server.api.biometricSignIn(key, registrationID: registration.id)
            let stranger = try await server.api.newAccount()

            let answer = try await server.api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "a brand new password"),
                token: account.sessionToken
            )
            #expect(answer.status == .noContent)
            for token in [other.sessionToken, biometric.sessionToken] {
                try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: token)
            }
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: account.sessionToken)
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: stranger.sessionToken)
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery")
            )
            _ = try await server.api.signIn(account.user.username, password: "a brand new password")
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: account.sessionToken).events
            #expect(events.contains { $0.type == .passwordChanged && $0.outcome == .success })
        }
    }

    @Test("a wrong current password changes nothing and counts toward the lockout")
    func wrongCurrentPassword() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidCredentials,
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "not the password", newPassword: "a brand new password"),
                token: account.sessionToken
            )
            #expect(
                try await server.snapshot().excluding(["factor_failures", "audit_tallies"]) == before.excluding(["factor_failures", "audit_tallies"])
            )
            for _ in 0..<4 {
                try await server.api.call(
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: "not the password", newPassword: "a brand new password"),
                    token: account.sessionToken
                )
            }
            try await server.api.expectError(
                .locked,
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "a brand new password"),
                token: account.sessionToken
            )
        }
    }

    @Test("the new password must be 8 to 256 characters")
    func newPasswordRules() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            for bad in ["short", String(repeating: "x", count: 257)] {
                try await server.api.expectError(
                    .invalidPassword,
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: bad),
                    token: account.sessionToken
                )
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("DELETE /v1/sessions ends every session of the user except the caller's, and no one else's")
    func signOutEverywhereElse() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let others = [try await server.api.signIn(account.user.username), try await server.api.signIn(account.user.username)]
            let stranger = try await server.api.newAccount()
            let answer = try await server.api.call(.delete, "/v1/sessions", token: account.sessionToken)
            #expect(answer.status == .noContent)
            for other in others {
                try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: other.sessionToken)
            }
            let left = try await server.api.expect(.ok, SessionListResponse.self, .get, "/v1/sessions", token: account.sessionToken)
            #expect(left.sessions.map(\.id) == [account.session.id])
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: stranger.sessionToken)
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: account.sessionToken).events
            #expect(events.first?.type == .otherSessionsRevoked)
        }
    }

    @Test("deleting a registration ends the sessions it signed in, but not the caller's own")
    func deletingARegistrationSparesTheCaller() async throws {
        try await TestServer.run { server in
            let (_, key, registration) = try await server.api.newAccountWithKey()
            let caller = try await server.api.biometricSignIn(key, registrationID: registration.id)
            let other = try await server.api.biometricSignIn(key, registrationID: registration.id)
            try await server.api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: caller.sessionToken)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: other.sessionToken)
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: caller.sessionToken)
        }
    }
}
