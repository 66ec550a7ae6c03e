import BioAuthProtocol
import BioAuthTesting
import BioAuthWebAuthn
import Foundation
import Testing

@testable import BioAuthServer

/// A stolen bearer token cannot be turned into a lasting credential: registering a device key,
/// adding a passkey, setting a PIN and changing the password need a recent authentication at least
/// as strong as what they add (the password, a biometric key or a passkey; never a PIN).
@Suite("Step-up before credential changes")
struct StepUpTests {
    /// The credential changes, each as a call with a stolen `token`.
    private static func credentialChanges(_ api: APIClient, token: String) async throws -> [ErrorCode?] {
        [
            try await api.call(.post, "/v1/passkeys/registration-options", token: token).errorCode,
            try await api.call(
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: token
            ).errorCode,
            try await api.call(
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "3917", algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: token
            ).errorCode,
            try await api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "attacker's password"),
                token: token
            ).errorCode,
        ]
    }

    @Test("a stolen token older than the step-up window cannot register a key, set a PIN or change the password, and changes nothing")
    func staleTokenCannotChangeCredentials() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 5 * 60 + 1)
            let before = try await server.snapshot()
            let answers = try await Self.credentialChanges(server.api, token: account.sessionToken)
            #expect(answers == [.reauthenticationRequired, .reauthenticationRequired, .reauthenticationRequired, .reauthenticationRequired])
            #expect(try await server.snapshot() == before)
            _ = try await server.api.signIn(account.user.username)  // the old password still works
        }
    }

    @Test("within the window of the session's own sign-in, no re-authentication is asked")
    func freshSessionNeedsNoStepUp() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 5 * 60)
            try await server.api.register(.es256(), token: account.sessionToken)
            try await server.api.setPIN("3917", token: account.sessionToken)
        }
    }

    @Test("the window follows --step-up-minutes")
    func windowIsConfigurable() async throws {
        try await TestServer.run(configure: { $0.stepUpWindow = .seconds(60) }) { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 61)
            let answers = try await Self.credentialChanges(server.api, token: account.sessionToken)
            #expect(answers.allSatisfy { $0 == .reauthenticationRequired })
        }
    }

    @Test("re-authenticating with the password renews the session's authenticated_at and lets the change through")
    func passwordReauthentication() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 10 * 60)
            let renewed = try await server.api.reauthenticate(password: "correct horse battery", token: account.sessionToken)
            #expect(abs(renewed.session.authenticatedAt.timeIntervalSince(server.clock.now)) < 0.002)
            #expect(renewed.session.createdAt == account.session.createdAt)
            try await server.api.register(.es256(), token: account.sessionToken)
        }
    }

    @Test("re-authenticating with a biometric signature works with the caller's own key only")
    func biometricReauthentication() async throws {
        try await TestServer.run { server in
            let alice = try await server.api.newAccount()
            let bob = try await server.api.newAccount()
            let aliceKey = SoftwareDeviceKey.es256()
            let bobKey = SoftwareDeviceKey.es256()
            let aliceRegistration = try await server.api.register(aliceKey, token: alice.sessionToken)
            let bobRegistration = try await server.api.register(bobKey, token: bob.sessionToken)
            server.clock.advance(seconds: 10 * 60)

            // Bob's key, Bob's valid signature: not a proof for Alice's session.
            let foreign = try await server.api.signedAuthentication(bobKey, registrationID: bobRegistration.id)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(challengeID: foreign.challengeID, signature: foreign.signature.data),
                token: alice.sessionToken
            )
            // A forged signature for Alice's key: refused, and the challenge is spent.
            let forged = try await server.api.signedAuthentication(.es256(), registrationID: aliceRegistration.id)
            let body = ReauthenticateRequest(challengeID: forged.challengeID, signature: forged.signature.data)
            try await server.api.expectError(.signatureInvalid, .post, "/v1/sessions/current/reauthenticate", json: body, token: alice.sessionToken)
            try await server.api.expectError(.challengeInvalid, .post, "/v1/sessions/current/reauthenticate", json: body, token: alice.sessionToken)
            #expect(try await Self.credentialChanges(server.api, token: alice.sessionToken).first == .reauthenticationRequired)

            let own = try await server.api.signedAuthentication(aliceKey, registrationID: aliceRegistration.id)
            try await server.api.expect(
                .ok,
                CurrentSessionResponse.self,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(challengeID: own.challengeID, signature: own.signature.data),
                token: alice.sessionToken
            )
            try await server.api.register(.es256(), token: alice.sessionToken)
        }
    }

    @Test("a PIN key cannot re-authenticate a session")
    func pinKeyCannotReauthenticate() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let pin = try await server.api.setPIN("3917", token: account.sessionToken)
            let signed = try await server.api.signedAuthentication(pin.key, registrationID: pin.registrationID)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(challengeID: signed.challengeID, signature: signed.signature.data),
                token: account.sessionToken
            )
        }
    }

    @Test("re-authentication takes exactly one proof")
    func exactlyOneProof() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            for body in [#"{}"#, #"{"password":"correct horse battery","challenge_id":"chl_x","signature":"AAAA"}"#, #"{"challenge_id":"chl_x"}"#] {
                try await server.api.expectError(
                    .invalidRequest,
                    .post,
                    "/v1/sessions/current/reauthenticate",
                    raw: Data(body.utf8),
                    token: account.sessionToken
                )
            }
        }
    }

    @Test("wrong passwords on re-authentication count toward the password's lockout")
    func reauthenticationGuessesLockThePassword() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            for _ in 0..<5 {
                try await server.api.expectError(
                    .invalidCredentials,
                    .post,
                    "/v1/sessions/current/reauthenticate",
                    json: ReauthenticateRequest(password: "guess-\(UUID())"),
                    token: account.sessionToken
                )
            }
            try await server.api.expectError(
                .locked,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(password: "correct horse battery"),
                token: account.sessionToken
            )
            try await server.api.expectError(
                .locked,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery")
            )
        }
    }

    @Test(
        "a PIN session cannot register a biometric key, add a passkey, set a PIN or change the password, however fresh: 403 reauthentication_required"
    )
    func pinSessionCannotStepUp() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("3917", token: account.sessionToken)
            let pinSession = try await server.api.pinSignIn(device, pin: "3917").decode(SignInResponse.self)
            #expect(pinSession.session.factors == [.pin] && pinSession.session.stepUpAt == nil)
            let before = try await server.snapshot()
            let answers = try await Self.credentialChanges(server.api, token: pinSession.sessionToken)
            #expect(answers == [.reauthenticationRequired, .reauthenticationRequired, .reauthenticationRequired, .reauthenticationRequired])
            #expect(
                try await server.snapshot().excluding(["audit_events", "audit_tallies", "factor_failures"])
                    == before.excluding(["audit_events", "audit_tallies", "factor_failures"])
            )

            // The password (the one a PIN session can prove) makes it strong enough, and says so.
            let renewed = try await server.api.reauthenticate(password: "correct horse battery", token: pinSession.sessionToken)
            #expect(renewed.session.factors == [.pin, .password] && abs(renewed.session.stepUpAt?.timeIntervalSince(server.clock.now) ?? 1) < 0.002)
            try await server.api.register(.es256(), token: pinSession.sessionToken)
        }
    }

    @Test("re-authenticating with a passkey counts: options list the caller's passkeys, and another session's ceremony is refused")
    func passkeyReauthentication() async throws {
        try await TestServer.run { server in
            let (account, authenticator, passkey) = try await server.api.newAccountWithPasskey()
            server.clock.advance(seconds: 10 * 60)
            #expect(try await Self.credentialChanges(server.api, token: account.sessionToken).allSatisfy { $0 == .reauthenticationRequired })

            let options = try await server.api.expect(
                .created,
                PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self,
                .post,
                "/v1/sessions/current/reauthenticate/passkey-options",
                token: account.sessionToken
            )
            #expect(options.publicKey.allowCredentials.map(\.id) == [passkey.credentialID])
            // Neither a sign-in nor another session may answer this ceremony.
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/sessions/passkey",
                json: PasskeySignInRequest(ceremonyID: options.ceremonyID, credential: try authenticator.authenticate(options.publicKey))
            )
            let fresh = try await server.api.expect(
                .created,
                PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self,
                .post,
                "/v1/sessions/current/reauthenticate/passkey-options",
                token: account.sessionToken
            )
            let other = try await server.api.signIn(account.user.username)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticationBody(ceremonyID: fresh.ceremonyID, credential: try authenticator.authenticate(fresh.publicKey)),
                token: other.sessionToken
            )

            let again = try await server.api.expect(
                .created,
                PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self,
                .post,
                "/v1/sessions/current/reauthenticate/passkey-options",
                token: account.sessionToken
            )
            let renewed = try await server.api.expect(
                .ok,
                CurrentSessionResponse.self,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticationBody(ceremonyID: again.ceremonyID, credential: try authenticator.authenticate(again.publicKey)),
                token: account.sessionToken
            )
            #expect(renewed.session.factors == [.password, .passkey])
            try await server.api.register(.es256(), token: account.sessionToken)

            let passkeyless = try await server.api.newAccount()
            try await server.api.expectError(.notFound, .post, "/v1/sessions/current/reauthenticate/passkey-options", token: passkeyless.sessionToken)
        }
    }
}
