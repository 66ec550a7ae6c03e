import BioAuthKit
import Foundation

/// Steps 6–10 of the scenario: Face ID set up, the next launch, the biometric sign-in, the
/// token read back from secure storage.
extension DemoScenario {
    /// Step 6: the app sets up biometric sign-in and stores the token behind it.
    package func step6EnableBiometrics() async throws -> DemoSection {
        device.willAnswer(.present("owner"))
        let (registration, prompts) = try await countingPrompts {
            try await client.enableBiometricSignIn(label: "Alice's phone", prompt: "Turn on Face ID sign-in")
        }
        self.registration = registration
        promptsPerOperation.append(prompts)
        return section(
            .step,
            6,
            "Face ID is set up; the token is stored behind it",
            """
            The Secure Enclave creates a P-256 key usable only after a Face ID match of a face \
            enrolled now (.biometryCurrentSet) and only while the phone has a passcode. Only the \
            public key leaves the phone. The server sends a challenge; Alice looks at the phone \
            (one prompt), the key signs it, and the server verifies the signature and activates \
            the registration. The session token is then kept in the keychain behind the same rule.
            """,
            events: [
                "Face ID prompt (\(prompts)): \"Turn on Face ID sign-in\" → Alice's face matches",
                "registration \(Redaction.abbreviate(registration.id)) is \(registration.status.rawValue) (\(registration.algorithm.rawValue))",
                "keychain: session token stored with .biometryCurrentSet, WhenPasscodeSetThisDeviceOnly",
            ]
        )
    }

    /// Step 7: the user is logged in and uses the app (and sets a PIN as the fallback factor).
    package func step7UseApp() async throws -> DemoSection {
        guard let token = await client.sessionToken else { throw BioAuthError.notSignedIn }
        let (status, _) = try await http.call(.getCurrentSession, token: token)
        try await client.setPIN(pin)
        return section(
            .step,
            7,
            "Alice is logged in and uses the app",
            """
            The app calls its API with the bearer token. In the settings she also sets a PIN, the \
            fallback for when Face ID is unavailable. The PIN is bound to this phone: the Secure \
            Enclave makes a PIN key (no Face ID needed, the PIN is the check) that signs every \
            PIN sign-in, and the server keeps only a bcrypt hash keyed with a secret outside its \
            database. The app also keeps the PIN behind Face ID.
            """,
            events: [
                "GET /v1/sessions/current → \(status)",
                "setPIN(••••••) → PIN key registered (it signed the server's challenge); the server stores an HMAC-keyed bcrypt hash",
            ]
        )
    }

    /// Step 8: on the next launch the app checks whether biometric sign-in is enabled.
    package func step8Relaunch() async -> DemoSection {
        relaunchApp()
        let (enabled, prompts) = await countingPrompts { await client.isBiometricSignInEnabled() }
        return section(
            .step,
            8,
            "Next launch: is biometric sign-in enabled?",
            """
            The app is killed and launched again; nothing is in memory. It checks, without a \
            prompt, that the device key exists and that the enrolled faces have not changed since \
            it was made (the domain state matches the recorded baseline).
            """,
            events: ["isBiometricSignInEnabled() → \(enabled), prompts shown: \(prompts)"]
        )
    }

    /// Step 9: the app signs in with biometrics.
    package func step9SignInWithBiometrics() async throws -> DemoSection {
        device.willAnswer(.present("owner"))
        let (signedIn, prompts) = try await countingPrompts { try await client.signInWithBiometrics(prompt: "Sign in to Bank") }
        promptsPerOperation.append(prompts)
        signedInMethods.append(signedIn.session.authentication.method)
        return section(
            .step,
            9,
            "Face ID signs her in",
            """
            The app asks for a fresh challenge (32 random bytes, single-use, expires in minutes). \
            The Secure Enclave signs it only after Alice's face matches (one prompt); the server \
            verifies the signature with the registered public key and opens a new session. No \
            boolean from the app was trusted: the signature is the proof.
            """,
            events: [
                "Face ID prompt (\(prompts)): \"Sign in to Bank\" → match → the key signs the challenge",
                "new session, method \(signedIn.session.authentication.method.rawValue)",
            ]
        )
    }

    /// Step 10: the app reads the backend token from secure storage.
    package func step10RestoreToken() async throws -> DemoSection {
        relaunchApp()
        device.willAnswer(.present("owner"))
        let (signedIn, prompts) = try await countingPrompts { try await client.restoreSession(prompt: "Unlock Bank") }
        promptsPerOperation.append(prompts)
        let property = PropertyResult(
            .resultBasedSignIn,
            held: promptsPerOperation == [1, 1, 1] && signedIn.session.authentication.method == .biometric && device.unansweredPromptCount == 0,
            "prompts per biometric operation: \(promptsPerOperation); session method \(signedIn.session.authentication.method.rawValue)"
        )
        return section(
            .step,
            10,
            "After the match, the token comes out of secure storage",
            """
            On a later launch the app resumes the session without a new sign-in: the keychain \
            releases the stored token only after a real match (one prompt), and the server \
            confirms the session is still valid: a token kept behind biometrics, \
            protected by the hardware rather than by an if-statement.
            """,
            events: [
                "Face ID prompt (\(prompts)): \"Unlock Bank\" → match → keychain releases the token",
                "session token \(Redaction.abbreviate(await client.sessionToken ?? "")) is valid for \(signedIn.user.username)",
            ],
            properties: [property]
        )
    }
}
