import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

/// The biometric domain state "can change exceptionally between major OS versions even if the
/// state of biometry has not changed" (LAContext.h): a moved domain state alone never costs the
/// user their key.
@Suite("An OS update moves the domain state and keeps the keys")
struct OSUpdateKeepsKeysTests {
    @Test("after an OS update biometric sign-in still works with the same registration and one prompt; nothing is revoked")
    func signInSurvivesOSUpdate() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometricsAndSignOut()
            account.device.installOSUpdate()
            #expect(await account.client.isBiometricSignInEnabled())
            let prompts = account.device.promptCount
            account.device.willAnswer(.present("owner"))
            let signedIn = try await account.client.signInWithBiometrics(prompt: "Sign in")
            #expect(signedIn.session.authentication.registrationID == registration.id)
            #expect(account.device.promptCount == prompts + 1)
            #expect(try await account.client.reconcile() == nil, "nothing to revoke on either side")
            let registrations = try await server.registrations(token: try await account.token())
            #expect(registrations.map(\.id) == [registration.id])
        }
    }

    @Test("after an OS update, a real enrollment change is still reported as biometryChanged")
    func enrollmentChangeAfterOSUpdate() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            _ = try await account.enableBiometricsAndSignOut()
            account.device.installOSUpdate()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "Sign in")  // the key confirms the new baseline
            try await account.client.signOut()
            account.device.enroll("someone else")
            await #expect(throws: BioAuthError.biometryChanged) { try await account.client.signInWithBiometrics(prompt: "Sign in") }
        }
    }

    @Test(
        "an OS update, then a failed match: authenticationFailed, nothing lost; the next match signs in with the same registration and nothing is revoked"
    )
    func failedMatchAfterOSUpdate() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometricsAndSignOut()
            account.device.installOSUpdate()
            account.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
            let failed = await caught { try await account.client.signInWithBiometrics(prompt: "Sign in") }
            #expect(failed == .authenticationFailed)
            #expect(await account.client.isBiometricSignInEnabled(), "the key was kept")
            account.device.willAnswer(.present("owner"))
            let signedIn = try await account.client.signInWithBiometrics(prompt: "Sign in")
            #expect(signedIn.session.authentication.registrationID == registration.id)
            #expect(try await account.client.reconcile() == nil, "nothing to revoke on either side")
            let registrations = try await server.registrations(token: try await account.token())
            #expect(registrations.map(\.id) == [registration.id])
        }
    }
}
