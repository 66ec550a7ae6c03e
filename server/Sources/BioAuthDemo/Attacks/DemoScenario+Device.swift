import BioAuthKit
import BioAuthTesting
import Foundation

/// Attacks 6 and 7: the phone's owner settings change under the app.
extension DemoScenario {
    /// Attack 6: someone adds their face; the key dies with the old enrollment.
    package func attackEnrollmentChange() async throws -> DemoSection {
        guard let old = registration else { throw BioAuthError.itemNotFound }
        device.enroll("someone else")
        relaunchApp()
        let (first, prompts) = await countingPrompts { await caught { try await client.signInWithBiometrics(prompt: "Sign in to Bank") } }
        let signedIn = try await client.signIn(username: username, password: password)
        let token = await client.sessionToken ?? ""
        let list = try await http.call(.listRegistrations, token: token)
        let registrations = (try? WireJSON.makeDecoder().decode(RegistrationListResponse.self, from: list.body).registrations) ?? []
        let stillActive = registrations.contains { $0.id == old.id && $0.status == .active }
        let challenge = try await http.call(.createChallenge, json: ["registration_id": old.id]).status
        // Alice turns Face ID sign-in on again, for the faces enrolled now.
        device.willAnswer(.present("owner"))
        registration = try await client.enableBiometricSignIn(label: "Alice's phone", prompt: "Turn on Face ID sign-in")
        let revoked = signedIn.reconciliation == .serverRegistrationRevoked(registrationID: old.id, reason: .biometryChanged)
        let property = PropertyResult(
            .enrollmentChangeRevokes,
            held: first == .biometryChanged && prompts == 0 && revoked && !stillActive && challenge == 404,
            "sign-in → \(first.brief) with \(prompts) prompts; password sign-in revoked the old registration: \(revoked); a challenge for it → \(challenge)"
        )
        return section(
            .attack,
            6,
            "A face is added: biometryChanged → password → stale registration revoked",
            """
            Someone who knows the passcode adds their own face in Settings (Face ID → Alternate \
            Appearance). The key was made with .biometryCurrentSet, so the hardware destroyed it; \
            the app sees the new domain state and reports biometryChanged, without wasting a prompt. \
            Alice signs in with her password; the client then revokes the stale registration on the \
            server, so no orphan stays on either side. Only then can she turn Face ID on again.
            """,
            events: [
                "device: a second face enrolled → new domain state; protected key and token gone",
                "signInWithBiometrics → \(first.brief) (\(prompts) prompts)",
                "signIn(password) → reconciliation: \(signedIn.reconciliation.brief)",
                "old registration \(Redaction.abbreviate(old.id)): still active on the server: \(stillActive); a challenge for it → \(challenge)",
                "Face ID sign-in enabled again: registration \(Redaction.abbreviate(registration?.id ?? ""))",
            ],
            properties: [property]
        )
    }

    /// Attack 7: the device passcode is removed; every protected item goes with it.
    package func attackPasscodeRemoved() async throws -> DemoSection {
        let before = device.storedItemCount
        device.removePasscode()
        let after = device.storedItemCount
        relaunchApp()
        let biometric = await caught { try await client.signInWithBiometrics(prompt: "Sign in to Bank") }
        let restore = await caught { try await client.restoreSession(prompt: "Unlock Bank") }
        let storedPIN = await caught { try await client.signInWithStoredPIN(prompt: "Use PIN") }
        device.setPasscode("482916")
        let signedIn = try await client.signIn(username: username, password: password)
        let revoked: Bool
        if case .serverRegistrationRevoked(_, .keyMissing) = signedIn.reconciliation { revoked = true } else { revoked = false }
        let property = PropertyResult(
            .passcodeRemovalDeletesItems,
            held: after < before && (biometric == .passcodeNotSet || biometric == .itemNotFound) && restore != nil && storedPIN != nil && revoked,
            "keychain items \(before) → \(after); sign-in → \(biometric.brief); stored token → \(restore.brief); stored PIN → \(storedPIN.brief)"
        )
        registration = nil
        return section(
            .attack,
            7,
            "The passcode is removed: the protected items are gone",
            """
            Everything BioAuth keeps (the device key, the stored token and PIN) requires \
            WhenPasscodeSetThisDeviceOnly: when the passcode is turned off, the system deletes \
            them, so a phone without a passcode holds nothing to steal. The app reports it plainly; \
            after a password sign-in the client revokes the orphaned registration on the server.
            """,
            events: [
                "device: passcode removed → keychain items \(before) → \(after) (the rest are non-secret bookkeeping)",
                "signInWithBiometrics → \(biometric.brief)",
                "restoreSession → \(restore.brief); signInWithStoredPIN → \(storedPIN.brief)",
                "passcode set again; signIn(password) → reconciliation: \(signedIn.reconciliation.brief)",
            ],
            properties: [property]
        )
    }
}
