import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

@Suite("Housekeeping")
struct HousekeepingTests {
    @Test("the purge removes exactly what has outlived its use, as the clock moves")
    func purgeFollowsTheClock() async throws {
        try await TestServer.run(configure: { $0.maxSessionMinutes = 43_200 }) { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            _ = try await server.api.startRegistration(SoftwareDeviceKey.ed25519(), token: account.sessionToken)  // left pending
            _ = try await server.api.challenge(for: registration.id)  // never answered
            let biometric = try await server.api.biometricSignIn(key, registrationID: registration.id)
            let signedOut = try await server.api.signIn(account.user.username)
            try await server.api.call(.delete, "/v1/sessions/current", token: signedOut.sessionToken)
            let locked = try await server.api.signUp()
            for _ in 0..<5 {
                try await server.api.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: locked.username, password: "wrong password!", sessionDurationMinutes: nil)
                )
            }
            let before = try await server.snapshot()
            #expect(try await server.server.purge() == Housekeeping.Report(), "nothing has expired yet")
            #expect(try await server.snapshot() == before)

            server.clock.advance(seconds: 121)
            var report = try await server.server.purge()
            // The pending registration's challenge; the unanswered authentication challenge was never
            // stored, nor counted in the database; the answered one's spent id stays for the margin.
            #expect(report == Housekeeping.Report(challenges: 1, pendingRegistrations: 1))
            let registrations = try await server.api.registrationList(token: account.sessionToken)
            #expect(registrations.registrations.map(\.id) == [registration.id], "the active registration stays")

            server.clock.advance(seconds: 15 * 60)
            report = try await server.server.purge()
            // The spent id, past the margin; the account's lock ran out, but its count stays until a success.
            #expect(report == Housekeeping.Report(challenges: 1))
            _ = try await server.api.signIn(locked.username)

            // Sessions stay (dead) for the retention period after they end, then go.
            let live = try await server.api.signIn(account.user.username, minutes: 43_200)
            server.clock.advance(seconds: 7 * 24 * 3600 - 1100)  // just short of 7 days after the sign-out
            #expect(try await server.server.purge().sessions == 0)
            server.clock.advance(seconds: 7200)  // 7 days after the last of them ended
            report = try await server.server.purge()
            #expect(report.sessions == 4, "the first password, biometric, signed-out and locked user's sessions")
            #expect(try await server.api.call(.get, "/v1/sessions/current", token: live.sessionToken).status == .ok)
            #expect(try await server.api.call(.get, "/v1/sessions/current", token: biometric.sessionToken).errorCode == .invalidSession)
            let tables = try await server.snapshot().tables
            #expect(tables["sessions", default: []].count == 1)
            #expect(tables["challenges", default: []].isEmpty)
            #expect(tables["registrations", default: []].count == 1)
        }
    }

    /// docs/PROTOCOL.md §3: public keys are unique across pending, active and revoked registrations;
    /// a pending one purged after its challenge expired never proved anything and frees its key.
    @Test("confirmations go with the audit retention after their expiry, whatever their outcome")
    func confirmationsPurged() async throws {
        try await TestServer.run(configure: { $0.auditRetention = .seconds(24 * 3600) }) { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let declined = try await server.confirmation(for: account.user.id, expiresIn: 60, credential: credential)
            try await server.api.call(.post, Endpoint.declineConfirmation.path(declined.id), token: account.sessionToken)
            _ = try await server.confirmation(for: account.user.id, expiresIn: 3600, credential: credential)
            server.clock.advance(seconds: 24 * 3600 + 60)
            #expect(try await server.server.purge().confirmations == 1)
            #expect(try await server.stored(declined.id) == nil)
            server.clock.advance(seconds: 3600)
            #expect(try await server.server.purge().confirmations == 1)
            #expect(try await server.snapshot().tables["confirmations", default: []].isEmpty)
        }
    }

    @Test("a pending registration purged after its challenge expired frees its key; a revoked one never does")
    func purgedPendingKeyMayRegisterAgain() async throws {
        try await TestServer.run(configure: { $0.stepUpWindow = .seconds(3600) }) { server in
            let account = try await server.api.newAccount()
            let pending = SoftwareDeviceKey.es256()
            let revoked = SoftwareDeviceKey.es256()
            _ = try await server.api.startRegistration(pending, token: account.sessionToken)
            let registration = try await server.api.register(revoked, token: account.sessionToken)
            try await server.api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: account.sessionToken)
            try await server.api.expectError(
                .duplicateRegistration,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: pending.publicKey()),
                token: account.sessionToken
            )
            server.clock.advance(seconds: 121)
            _ = try await server.server.purge()
            try await server.api.register(pending, token: account.sessionToken)
            try await server.api.expectError(
                .duplicateRegistration,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: revoked.publicKey()),
                token: account.sessionToken
            )
        }
    }
}
