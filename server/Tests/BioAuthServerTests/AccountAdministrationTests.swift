import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

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
                try await server.api.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: account.user.username, password: "wrong password")
                )
            }

            let recovery = try await server.administration.recover(try await server.administration.account(account.user.username.uppercased()))
            #expect(recovery.revoked == .init(sessions: 2, biometricKeys: 1, pinKeys: 1, passkeys: 0))
            for token in [account.sessionToken, biometric.sessionToken] {
                try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: token)
            }
            try await server.api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: registration.id)
            )
            try await server.api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: pin.registrationID)
            )
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery")
            )

            // The one-time password signs in (the lock is gone), to a session that may only change the password.
            let restricted = try await server.api.signIn(account.user.username, password: recovery.oneTimePassword)
            #expect(restricted.session.passwordChangeRequired)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/audit"), (.get, "/v1/biometric/registrations"), (.delete, "/v1/sessions"), (.get, "/v1/sessions"),
            ] {
                try await server.api.expectError(.passwordChangeRequired, method, path, token: restricted.sessionToken)
            }
            try await server.api.expectError(
                .passwordChangeRequired,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: restricted.sessionToken
            )
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: restricted.sessionToken)
            try await server.api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: recovery.oneTimePassword, newPassword: "my new own password"),
                token: restricted.sessionToken
            )
            let current = try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: restricted.sessionToken)
            #expect(!current.session.passwordChangeRequired)
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: restricted.sessionToken).events
            for type in [
                AuditEvent.Kind.adminSessionsRevoked, .adminRegistrationsRevoked, .adminFactorsUnlocked, .adminPasswordReset, .passwordChanged,
            ] {
                #expect(events.contains { $0.type == type }, "\(type)")
            }
            // The one-time password worked once: it is gone now.
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: recovery.oneTimePassword)
            )
        }
    }

    @Test("recover revokes passkeys with the sessions they signed in: a passkey an attacker planted signs nobody in afterwards")
    func recoverRevokesPasskeys() async throws {
        try await TestServer.run { server in
            let (account, planted, passkey) = try await server.api.newAccountWithPasskey()
            let attacker = try await server.api.passkeySignIn(planted).decode(SignInResponse.self)
            let recovery = try await server.administration.recover(try await server.administration.account(account.user.username))
            #expect(recovery.revoked == .init(sessions: 2, biometricKeys: 0, pinKeys: 0, passkeys: 1))
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: attacker.sessionToken)
            try await server.api.expectError(
                .passkeyUnknown,
                .post,
                Endpoint.signInWithPasskey.path(),
                json: try await {
                    let ceremony = try await server.api.passkeyAuthenticationOptions()
                    return PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try planted.authenticate(ceremony.publicKey))
                }()
            )
            // The owner's way back: the one-time password, then a password of their own.
            let restricted = try await server.api.signIn(account.user.username, password: recovery.oneTimePassword)
            try await server.api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: nil, newPassword: "owner's own password"),
                token: restricted.sessionToken
            )
            let passkeys = try await server.api.expect(
                .ok,
                PasskeyListResponse.self,
                .get,
                Endpoint.listPasskeys.path(),
                token: restricted.sessionToken
            )
            #expect(passkeys.passkeys.isEmpty, "\(passkey.id) is gone")
        }
    }

    @Test(
        "while a password change is pending, only the one-time password signs in: a passkey, a biometric key and a PIN get 403 password_change_required"
    )
    func pendingPasswordChangeRefusesOtherFactors() async throws {
        try await TestServer.run { server in
            let (account, authenticator, _) = try await server.api.newAccountWithPasskey()
            let key = SoftwareDeviceKey.es256()
            let registration = try await server.api.register(key, token: account.sessionToken)
            let pin = try await server.api.setPIN("3917", token: account.sessionToken)
            let reset = try await server.administration.resetPassword(try await server.administration.account(account.user.id))
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: account.sessionToken)
            let before = try await server.snapshot()
            #expect(try await server.api.passkeySignIn(authenticator).errorCode == .passwordChangeRequired)
            try await server.api.expectError(
                .passwordChangeRequired,
                .post,
                Endpoint.signInWithBiometric.path(),
                json: try await server.api.signedAuthentication(key, registrationID: registration.id)
            )
            #expect(try await server.api.pinSignIn(pin, pin: "3917").errorCode == .passwordChangeRequired)
            let after = try await server.snapshot()
            #expect(after.tables["sessions"] == before.tables["sessions"], "no session was made")
            let restricted = try await server.api.signIn(account.user.username, password: reset.password)
            #expect(restricted.session.passwordChangeRequired)
        }
    }

    @Test("bioauth admin acts on exactly one account: by its id, or by its exact username; a look-alike is another account")
    func exactAccount() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let byName = try await server.administration.account(account.user.username.uppercased())
            let byID = try await server.administration.account(account.user.id)
            #expect(byName == byID && byID.id == account.user.id && abs(byID.createdAt.timeIntervalSince(account.user.createdAt)) < 0.001)
            #expect(byID.description.hasPrefix("\(account.user.id) \"\(account.user.username)\", created 20"))
            // A Cyrillic а instead of the Latin a is no way to reach the account.
            let lookAlike = account.user.username.replacingOccurrences(of: "a", with: "\u{0430}")
            try #require(lookAlike != account.user.username)
            await #expect(throws: AccountAdministration.Failure.self) { try await server.administration.account(lookAlike) }
        }
    }

    @Test("an unknown username is a clear failure that changes nothing")
    func unknownUser() async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            await #expect(throws: AccountAdministration.Failure.self) { try await server.administration.account("nobody-at-all") }
            await #expect(throws: AccountAdministration.Failure.self) { try await server.administration.account("x") }
            await #expect(throws: AccountAdministration.Failure.self) {
                try await server.administration.account("usr_0123456789abcdef0123456789abcdef")
            }
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
            let recover = try ServeCommandTests.launch(["admin", "recover", "--database", path, "--password-cost", "10", account.user.id])
            #expect(try await recover.waitForExit() == 0)
            let line = try #require(recover.stdout.split(separator: "\n").first { $0.hasPrefix("one-time password") })
            let password = try #require(line.split(separator: " ").last.map(String.init))
            #expect(recover.stdout.contains("ended 1 session(s); revoked 0 biometric key(s), 0 PIN key(s), 0 passkey(s)"))
            #expect(recover.stdout.contains("account \(account.user.id) \"\(account.user.username)\", created "))
            let signedIn = try await TestServer.run(configure: { $0.databasePath = path }) { server in
                try await server.api.signIn(account.user.username, password: password)
            }
            #expect(signedIn.session.passwordChangeRequired)

            let unknown = try ServeCommandTests.launch(["admin", "unlock", "--database", path, "nobody-here"])
            #expect(try await unknown.waitForExit() == 1)
            #expect(unknown.stderr.split(separator: "\n").count == 1, "stderr: \(unknown.stderr)")
            #expect(unknown.stderr.contains("no user nobody-here"))
        }
    }
}
