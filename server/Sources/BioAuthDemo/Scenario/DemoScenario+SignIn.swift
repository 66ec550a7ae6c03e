@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// Steps 1–5 of the scenario: the login screen, the password, the session token, the offer
/// of Face ID.
extension DemoScenario {
    /// Step 1: the user opens the app and sees the login screen.
    package func step1OpenApp() async throws -> DemoSection {
        try await client.signUp(username: username, password: password)
        let enabled = await client.isBiometricSignInEnabled()
        return section(
            .step,
            1,
            "Alice opens the app and sees the login screen",
            """
            The demo creates Alice's account, then launches the banking app on her simulated phone. \
            The app asks BioAuthKit whether biometric sign-in is set up on this device; it is not, \
            so it shows the login screen. Asking never shows a prompt.
            """,
            events: [
                "phone: Face ID, a device passcode, one enrolled face (Alice's)",
                "account created: \(username)",
                "isBiometricSignInEnabled() → \(enabled) → login screen",
            ]
        )
    }

    /// Step 2: the user enters a username and password.
    package func step2EnterPassword() -> DemoSection {
        section(
            .step,
            2,
            "She types her username and password",
            """
            The password goes only to the server, over the connection; the app never stores it. \
            (The demo never prints it either: passwords and PINs show as ••••••.)
            """,
            events: ["typed: \(username) / ••••••"]
        )
    }

    /// Step 3: the app sends the credentials to the server.
    package func step3SendCredentials() async throws -> DemoSection {
        let signedIn = try await client.signIn(username: username, password: password)
        signedInMethods.append(signedIn.session.authentication.method)
        return section(
            .step,
            3,
            "The app sends them to the server",
            """
            BioAuthKit posts them to the server, which checks the password against its bcrypt hash. \
            A wrong password and an unknown username get the same answer, in about the same time.
            """,
            events: ["signIn(username:password:) → signed in as \(signedIn.user.username)"]
        )
    }

    /// Step 4: the server issues a session token.
    package func step4SessionToken() async -> DemoSection {
        let token = await client.sessionToken ?? ""
        let session = await client.session
        return section(
            .step,
            4,
            "The server issues a unique session token",
            """
            The token is `bat_`, the session's id and 256 random bits. The server keeps only its SHA-256, so even a \
            copy of the database does not contain it. The app holds it in memory for now.
            """,
            events: [
                "session token: \(Redaction.abbreviate(token)) (\(token.count) characters; shown abbreviated, never whole)",
                "session \(session.map { Redaction.abbreviate($0.id) } ?? "?"), method \(session?.authentication.method.rawValue ?? "?"), expires \(session.map { "\($0.expiresAt)" } ?? "?")",
            ]
        )
    }

    /// Step 5: the app offers biometric sign-in.
    package func step5OfferBiometrics() async -> DemoSection {
        let context = device.backends.localAuthentication.makeContext()
        let availability = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)
        return section(
            .step,
            5,
            "The app offers Face ID for future logins",
            """
            The app asks the system whether Face ID can be used (no prompt). That answer only \
            decides whether to show the offer; it is never what signs anyone in. Alice taps \
            "Turn on Face ID".
            """,
            events: [
                "canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics) → \(availability.map { "\($0)" } ?? "available") (\(context.biometryType))",
                "Alice accepts",
            ]
        )
    }
}
