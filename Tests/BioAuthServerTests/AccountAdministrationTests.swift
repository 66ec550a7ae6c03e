import BioAuthProtocol
@testable import BioAuthServer
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

/// The support desk's way in for a user who lost everything.
@Suite("Account recovery by an operator")
struct AccountAdministrationTests {
    @Test("recover ends every session, revokes every device key, unlocks the factors and sets a one-time password")
    func recoverEverything() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let pin = try await server.api.setPIN("3917", token: account.sessionToken)
            let biometric = try await server.api.biometricSignIn(key, registrationID: registration.id)
            for _ in 0..<5 { _ = try await server.api.pinSignIn(pin, pin: "0000") }
            for _ in 0..<5 {
                try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: account.user.username, password: "wrong password"))
            }

            let recovery = try await server.administration.recover(username: account.user.username.uppercased())
            #expect(recovery.sessionsRevoked == 2)
            #expect(recovery.registrationsRevoked == 2)
            for token in [account.sessionToken, biometric.sessionToken] {
                try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: token)
            }
            try await server.api.expectError(.registrationNotFound, .post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: registration.id))
            try await server.api.expectError(.registrationNotFound, .post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: pin.registrationID))
            try await server.api.expectError(.invalidCredentials, .post, "/v1/sessions/password",
                                             json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery"))

            // The one-time password signs in (the lock is gone), to a session that may only change the password.
            let restricted = try await server.api.signIn(account.user.username, password: recovery.oneTimePassword)
            #expect(restricted.session.passwordChangeRequired)
            for (method, path) in [(HTTPRequest.Method.get, "/v1/audit"), (.get, "/v1/biometric/registrations"), (.delete, "/v1/sessions"), (.get, "/v1/sessions")] {
                try await server.api.expectError(.passwordChangeRequired, method, path, token: restricted.sessionToken)
            }
            try await server.api.expectError(.passwordChangeRequired, .post, "/v1/biometric/registrations",
                                             json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()), token: restricted.sessionToken)
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: restricted.sessionToken)
            try await server.api.call(.put, "/v1/users/me/password",
                                      json: ChangePasswordRequest(currentPassword: recovery.oneTimePassword, newPassword: "my new own password"), token: restricted.sessionToken)
            let current = try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: restricted.sessionToken)
            #expect(!current.session.passwordChangeRequired)
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: restricted.sessionToken).events
            for type in [AuditEvent.Kind.adminSessionsRevoked, .adminRegistrationsRevoked, .adminFactorsUnlocked, .adminPasswordReset, .passwordChanged] {
                #expect(events.contains { $0.type == type }, "\(type)")
            }
            // The one-time password worked once: it is gone now.
            try await server.api.expectError(.invalidCredentials, .post, "/v1/sessions/password",
                                             json: PasswordSignInRequest(username: account.user.username, password: recovery.oneTimePassword))
        }
    }

    @Test("an unknown username is a clear failure that changes nothing")
    func unknownUser() async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            await #expect(throws: AccountAdministration.Failure.self) { try await server.administration.recover(username: "nobody-at-all") }
            await #expect(throws: AccountAdministration.Failure.self) { try await server.administration.unlockFactors(username: "x") }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("one-time passwords are long, random and readable")
    func oneTimePasswordShape() {
        let samples = (0..<50).map { _ in AccountAdministration.oneTimePassword() }
        #expect(Set(samples).count == samples.count)
        for sample in samples {
            #expect(sample.count == 29)
            #expect(sample.allSatisfy { "abcdefghjkmnpqrstuvwxyz23456789-".contains($0) })
        }
    }

    @Test("bioauth admin recover works on the server's database and prints the one-time password once; an unknown user is one line and exit 1")
    func adminCommand() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
            let account = try await TestServer.run(configure: { $0.databasePath = path }) { server in
                try await server.api.newAccount()
            }
            let recover = try ServeCommandTests.launch(["admin", "recover", "--database", path, "--password-cost", "10", account.user.username])
            #expect(try await recover.waitForExit() == 0)
            let line = try #require(recover.stdout.split(separator: "\n").first { $0.hasPrefix("one-time password") })
            let password = try #require(line.split(separator: " ").last.map(String.init))
            #expect(recover.stdout.contains("ended 1 session(s), revoked 0 device key(s)"))
            let signedIn = try await TestServer.run(configure: { $0.databasePath = path }) { server in
                try await server.api.signIn(account.user.username, password: password)
            }
            #expect(signedIn.session.passwordChangeRequired)

            let unknown = try ServeCommandTests.launch(["admin", "unlock", "--database", path, "nobody-here"])
            #expect(try await unknown.waitForExit() == 1)
            #expect(unknown.stderr.split(separator: "\n").count == 1, "stderr: \(unknown.stderr)")
            #expect(unknown.stderr.contains("no user named nobody-here"))
        }
    }
}
