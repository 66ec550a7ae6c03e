import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

@Suite("Reconciliation: device and server registrations never drift apart")
struct ReconciliationTests {
    @Test("the server no longer knows the registration → biometric sign-in cleans the local side and says so")
    func serverForgotDuringSignIn() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometricsAndSignOut()
            // Revoked elsewhere (another device, the web).
            let token = try await account.token()
            let (_, response) = try await server.raw(.deleteRegistration, id: registration.id, token: token)
            #expect(response.statusCode == 204)
            let prompts = account.device.promptCount
            let error = await caught { try await account.client.signInWithBiometrics(prompt: "p") }
            #expect(error?.serverCode == .registrationNotFound)
            #expect(await account.client.lastReconciliation == .localRegistrationRemoved(registrationID: registration.id))
            #expect(account.device.promptCount == prompts)
            #expect(await account.client.isBiometricSignInEnabled() == false)
            await #expect(throws: BioAuthError.itemNotFound) { try await account.client.signInWithBiometrics(prompt: "p") }
        }
    }

    @Test("reconcile(): the server forgot → local key deleted")
    func reconcileServerForgot() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometrics()
            #expect(try await account.client.reconcile() == nil, "both sides agree")
            let token = try #require(await account.client.sessionToken)
            _ = try await server.raw(.deleteRegistration, id: registration.id, token: token)
            // Deleting the registration ended the sessions it created; ours is a password session.
            #expect(try await account.client.reconcile() == .localRegistrationRemoved(registrationID: registration.id))
            #expect(await account.client.isBiometricSignInEnabled() == false)
        }
    }

    @Test("reconcile(): the device lost the key (passcode removed) → registration revoked on the server")
    func reconcileLocalKeyMissing() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometrics()
            account.device.removePasscode()
            #expect(try await account.client.reconcile() == .serverRegistrationRevoked(registrationID: registration.id, reason: .keyMissing))
            #expect(try await server.registrations(token: try #require(await account.client.sessionToken)).isEmpty)
            #expect(try await account.client.reconcile() == nil)
        }
    }

    @Test("reconcile(): an enrollment change while signed in → registration revoked on the server")
    func reconcileEnrollmentChanged() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometrics()
            account.device.unenroll("owner")
            account.device.enroll("new face")
            #expect(try await account.client.reconcile() == .serverRegistrationRevoked(registrationID: registration.id, reason: .biometryChanged))
            #expect(try await server.registrations(token: try #require(await account.client.sessionToken)).isEmpty)
        }
    }

    @Test(
        "an enrollment change, however the device reports it: biometric sign-in reads as off and reconcile() revokes the registration, without a prompt",
        arguments: EnrollmentChangeBehaviour.all,
        [true, false]
    )
    func reconcileEnrollmentChangeAnyReport(behaviour: EnrollmentChangeBehaviour, hasDomainStateAPI: Bool) async throws {
        try await LoopbackServer.run { server in
            let device = SimulatedDevice()
            device.setEnrollmentChangeBehaviour(behaviour)
            device.setHasDomainStateAPI(hasDomainStateAPI)
            let account = try await Account.signedIn(on: server, device: device)
            let registration = try await account.enableBiometrics()
            #expect(await account.client.isBiometricSignInEnabled())
            device.enroll("someone else")
            let prompts = device.promptCount
            #expect(await account.client.isBiometricSignInEnabled() == false)
            #expect(try await account.client.reconcile() == .serverRegistrationRevoked(registrationID: registration.id, reason: .biometryChanged))
            #expect(device.promptCount == prompts)
            #expect(try await server.registrations(token: try #require(await account.client.sessionToken)).isEmpty)
        }
    }

    @Test("disable deletes the local key AND the server registration")
    func disableDeletesBothSides() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            try await account.enableBiometrics()
            let before = account.device.storedItemCount
            try await account.client.disableBiometricSignIn()
            #expect(try await server.registrations(token: try #require(await account.client.sessionToken)).isEmpty)
            #expect(account.device.storedItemCount < before)
            #expect(await account.client.isBiometricSignInEnabled() == false)
        }
    }
}
