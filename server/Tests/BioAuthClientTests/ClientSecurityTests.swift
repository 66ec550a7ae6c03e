@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

/// The threat model's properties, end to end against the real server.
@Suite("Security: client and server together")
struct ClientSecurityTests {
    @Test("hooked evaluatePolicy success yields no token and no valid signature")
    func hookedEvaluatePolicyYieldsNoToken() async throws {
        try await LoopbackServer.run { server in
            let owner = try await Account.signedIn(on: server)
            try await owner.client.setPIN("246810")
            try await owner.enableBiometrics()
            // The phone falls into the attacker's hands; the app is relaunched under their hooks.
            let account = Account(server: server, device: owner.device, client: server.client(on: owner.device), username: owner.username)
            let attacker = account.device.attacker
            attacker.hookEvaluatePolicy()
            // The app's own LocalAuthentication check now says yes...
            let context = account.device.makeContext()
            #expect(await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "hooked") == nil)
            // ...but without a real match there is no signature, so no session; nor a stored token.
            account.device.willAnswer(.presentUnenrolled, .presentUnenrolled, .presentUnenrolled, .presentUnenrolled, .cancel)
            await #expect(throws: BioAuthError.authenticationFailed) { try await account.client.signInWithBiometrics(prompt: "p") }
            await #expect(throws: BioAuthError.authenticationFailed) { try await account.client.restoreSession(prompt: "p") }
            await #expect(throws: BioAuthError.userCanceled) { try await account.client.signInWithStoredPIN(prompt: "p") }
            #expect(await account.client.sessionToken == nil)
        }
    }

    @Test("app storage yields no session token, no PIN and no private key")
    func storageYieldsNoToken() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            try await account.client.setPIN("902817")
            try await account.enableBiometrics()
            let token = try #require(await account.client.sessionToken)
            let attacker = account.device.attacker
            #expect(!attacker.storageContains(Data(token.utf8)))
            #expect(!attacker.storageContains(Data("902817".utf8)))
            #expect(!attacker.storageContains(Data(Account.password.utf8)))
        }
    }

    @Test("a replayed biometric sign-in request is refused: the challenge was single-use")
    func replayedSignInRefused() async throws {
        try await LoopbackServer.run { server in
            let tap = RecordingTransport()
            let account = try await Account.signedIn(on: server, transport: tap)
            _ = try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "p")
            let recorded = try #require(tap.lastRequest(pathSuffix: "/v1/sessions/biometric"))
            let (body, response) = try await tap.replay(recorded)
            #expect(response.statusCode == 401)
            #expect(try WireJSON.makeDecoder().decode(ErrorResponse.self, from: body).error.code == .challengeInvalid)
        }
    }

    @Test("enrollment change → biometryChanged → password sign-in → the old registration is revoked on the server")
    func enrollmentChangeRevokesRegistration() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometricsAndSignOut()
            account.device.enroll("someone else")
            let prompts = account.device.promptCount
            await #expect(throws: BioAuthError.biometryChanged) { try await account.client.signInWithBiometrics(prompt: "p") }
            await #expect(throws: BioAuthError.biometryChanged) { try await account.client.signInWithBiometrics(prompt: "p") }
            #expect(account.device.promptCount == prompts, "no prompt is wasted on a key that is gone")
            #expect(await account.client.isBiometricSignInEnabled() == false)

            let signedIn = try await account.client.signIn(username: account.username, password: Account.password)
            #expect(signedIn.reconciliation == .serverRegistrationRevoked(registrationID: registration.id, reason: .biometryChanged))
            #expect(try await server.registrations(token: try #require(await account.client.sessionToken)).isEmpty)
            // The stale registration can no longer even get a challenge.
            let (_, response) = try await server.raw(.createChallenge, json: Data(#"{"registration_id":"\#(registration.id)"}"#.utf8))
            #expect(response.statusCode == 404)
            // And biometric sign-in can be enabled again with the new enrollment.
            account.device.willAnswer(.present("someone else"))
            let fresh = try await account.client.enableBiometricSignIn(prompt: "Enable again")
            #expect(fresh.id != registration.id)
        }
    }
}
