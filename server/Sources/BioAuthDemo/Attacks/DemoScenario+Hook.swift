@_spi(DeviceSeam) import BioAuthKit
import BioAuthTesting
import Foundation

/// Attacks 1 and 2: a Frida-style hook on `evaluatePolicy`, against BioAuth and against the
/// event-based anti-pattern.
extension DemoScenario {
    /// Attack 1: the phone is in the attacker's hands; they hook `evaluatePolicy` to succeed.
    package func attackHookedEvaluatePolicy() async throws -> DemoSection {
        let token = await client.sessionToken ?? ""
        device.attacker.hookEvaluatePolicy()
        relaunchApp()
        let hookedAnswer = await device.backends.localAuthentication.makeContext()
            .evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "hooked")
        // The attacker's face does not match, at either attempt of two prompts; the third prompt they dismiss.
        device.willAnswer(.presentUnenrolled, .presentUnenrolled, .presentUnenrolled, .presentUnenrolled, .cancel)
        let biometric = await caught { try await client.signInWithBiometrics(prompt: "Sign in to Bank") }
        let restore = await caught { try await client.restoreSession(prompt: "Unlock Bank") }
        let storedPIN = await caught { try await client.signInWithStoredPIN(prompt: "Use PIN") }
        let noToken = await client.sessionToken == nil
        let attacker = device.attacker
        let leaks = [("session token", token), ("PIN", pin), ("password", password)].filter { attacker.storageContains(Data($0.1.utf8)) }.map(\.0)
        let hooked = PropertyResult(
            .hookedCallbackYieldsNothing,
            held: hookedAnswer == nil && biometric != nil && restore != nil && storedPIN != nil && noToken,
            "evaluatePolicy → \(hookedAnswer == nil ? "success (hooked)" : "not hooked"); biometric sign-in: \(biometric.brief); stored token: \(restore.brief); stored PIN: \(storedPIN.brief)"
        )
        let storage = PropertyResult(
            .appStorageHoldsNoSecret,
            held: leaks.isEmpty,
            leaks.isEmpty
                ? "\(attacker.readAppStorage().count) readable items; none holds the token, the PIN or the password"
                : "readable: \(leaks.joined(separator: ", "))"
        )
        return section(
            .attack,
            1,
            "Frida hook: evaluatePolicy always says \"success\"",
            """
            The attacker controls the app process on a jailbroken phone and hooks LAContext's \
            evaluatePolicy so it reports success without any match. BioAuth never asks that \
            question to decide anything: the key signs, and the keychain releases the token and \
            the PIN, only after the secure hardware itself saw an enrolled face. The attacker's \
            face does not match, so there is no signature, no token, no session; and the app's \
            readable storage holds nothing secret.
            """,
            events: [
                "hook installed: evaluatePolicy(…) → \(hookedAnswer == nil ? "success" : "\(hookedAnswer!)")",
                "signInWithBiometrics → \(biometric.brief) (a challenge was issued, never signed)",
                "restoreSession (token behind Face ID) → \(restore.brief)",
                "signInWithStoredPIN (PIN behind Face ID) → \(storedPIN.brief)",
                "app holds a session token: \(!noToken)",
                "attacker reads app storage: \(attacker.readAppStorage().count) unprotected items, secrets found: \(leaks.isEmpty ? "none" : leaks.joined(separator: ", "))",
            ],
            properties: [hooked, storage]
        )
    }

    /// For contrast: an event-based "bad app" on the same hooked phone falls at once.
    package func antiPatternEventBasedApp() async throws -> DemoSection {
        let badApp = EventBasedApp(device: device, http: http)
        try await badApp.signIn(username: username, password: password)
        let prompts = device.promptCount
        let stolen = await badApp.unlockWithFaceID()
        var status = 0
        if let stolen {
            status = try await http.call(.getCurrentSession, token: stolen).status
            try await http.call(.signOut, token: stolen)  // the demo ends that session
        }
        let readable = stolen.map { device.attacker.storageContains(Data($0.utf8)) } ?? false
        let property = PropertyResult(
            .eventBasedAppFalls,
            held: stolen != nil && status == 200 && device.promptCount == prompts,
            "bad app released its token with \(device.promptCount - prompts) prompts; the server answered \(status) to it"
        )
        return section(
            .antiPattern,
            2,
            "⚠ ANTI-PATTERN (for contrast): an event-based app under the same hook",
            """
            NOT BioAuth. A "bad app" keeps its session token in an unprotected keychain item and \
            reads it when evaluatePolicy returns true. Under the same hook, evaluatePolicy returns \
            true without a face, the app hands over the token, and the attacker is signed in as \
            Alice. (The token is also plainly readable from app storage.) This is why BioAuth \
            trusts only cryptographic results: the hook is real; the design is the defence.
            """,
            events: [
                "bad app: token stored with no access control",
                "attacker opens the bad app: evaluatePolicy → success (hooked), no face needed",
                "bad app read its token: \(stolen.map(Redaction.abbreviate) ?? "nothing")",
                "GET /v1/sessions/current with it → \(status)\(status == 200 ? ": the attacker is in" : "")",
                "token readable straight from app storage: \(readable)",
            ],
            properties: [property]
        )
    }
}
