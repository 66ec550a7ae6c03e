import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// What a verification saw must still be true when its session is made: a password change, a
/// recovery, `revoke-sessions` or `revoke-devices` between a check and its completion makes the
/// completion fail (the account's credential epoch moved on).
@Suite("Stale verifications yield no session")
struct StaleVerificationTests {
    /// The credential changes that must void a verification in flight, each by the means its
    /// owner or an operator has.
    enum Change: String, CaseIterable, CustomStringConvertible {
        case passwordChange, recover, revokeSessions, revokeDevices, signOutElsewhere
        var description: String { rawValue }

        func make(_ server: TestServer, _ account: SignInResponse) async throws {
            let administration = server.administration
            let target = try await administration.account(account.user.id)
            switch self {
            case .passwordChange:
                try await server.api.call(
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "another good password"),
                    token: account.sessionToken
                )
            case .recover: _ = try await administration.recover(target)
            case .revokeSessions: _ = try await administration.revokeSessions(target)
            case .revokeDevices: _ = try await administration.revokeDevices(target)
            case .signOutElsewhere: try await server.api.call(.delete, "/v1/sessions", token: account.sessionToken)
            }
        }
    }

    private static func code(_ error: any Error) -> ErrorCode? { (error as? Rejection)?.code }

    @Test("a password checked against the old hash creates no session after the change", arguments: Change.allCases)
    func password(_ change: Change) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let core = server.server.services.core
            let passwords = PasswordSignInService(
                database: server.server.database,
                check: PasswordCheck(hasher: PasswordHasher(cost: 4), core: core),
                core: core
            )
            let checked = try await passwords.verify(username: account.user.username, password: "correct horse battery")
            #expect(checked.holds)
            try await change.make(server, account)
            let sessions = try await server.snapshot().tables["sessions"]
            await #expect { try await core.complete(checked, for: .signIn(minutes: 60)) } throws: { Self.code($0) == .invalidCredentials }
            #expect(try await server.snapshot().tables["sessions"] == sessions, "no session was made")
        }
    }

    @Test(
        "a biometric challenge issued before the change signs nobody in; one issued after does, unless the key was revoked",
        arguments: Change.allCases
    )
    func biometric(_ change: Change) async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let signed = try await server.api.signedAuthentication(key, registrationID: registration.id)
            try await change.make(server, account)
            try await server.api.expectError(.challengeInvalid, .post, Endpoint.signInWithBiometric.path(), json: signed)
            if [.recover, .revokeDevices].contains(change) {
                try await server.api.expectError(
                    .registrationNotFound,
                    .post,
                    Endpoint.createChallenge.path(),
                    json: CreateChallengeRequest(registrationID: registration.id)
                )
            } else {
                _ = try await server.api.biometricSignIn(key, registrationID: registration.id)
            }
        }
    }

    @Test("a passkey assertion checked before the change creates no session", arguments: Change.allCases)
    func passkey(_ change: Change) async throws {
        try await TestServer.run { server in
            let (account, authenticator, _) = try await server.api.newAccountWithPasskey()
            let ceremony = try await server.api.passkeyAuthenticationOptions()
            let core = server.server.services.core
            let signIns = PasskeySignInService(
                database: server.server.database,
                relyingParty: server.server.relyingParty,
                core: core,
                challengeTTL: .seconds(120),
                decoyKey: ThrowawayPINKey.ring.current
            )
            let checked = try await signIns.verify(
                ceremonyID: ceremony.ceremonyID,
                credential: try authenticator.authenticate(ceremony.publicKey),
                for: nil
            )
            #expect(checked.holds)
            try await change.make(server, account)
            await #expect { try await core.complete(checked, for: .signIn(minutes: 60)) } throws: { Self.code($0) == .challengeInvalid }
        }
    }
}
