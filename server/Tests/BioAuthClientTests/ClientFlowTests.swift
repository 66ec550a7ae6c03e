import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

@Suite("Client: the mission's flow against the real server over loopback")
struct ClientFlowTests {
    @Test("sign up → password → enable biometrics → sign out → biometric sign-in → PIN → disable")
    func missionFlowEndToEnd() async throws {
        try await LoopbackServer.run { server in
            let device = SimulatedDevice()
            let client = server.client(on: device)
            let user = try await client.signUp(username: "alice", password: Account.password)
            let password = try await client.signIn(username: "alice", password: Account.password)
            #expect(password.user == user)
            #expect(password.session.authentication.method == .password)
            #expect(password.reconciliation == nil)

            device.willAnswer(.present("owner"))
            let registration = try await client.enableBiometricSignIn(label: "Alice's phone", prompt: "Enable Face ID")
            #expect(registration.status == .active)
            #expect(registration.algorithm == .es256)
            #expect(device.promptCount == 1, "enabling costs exactly one prompt (the registration signature)")
            #expect(await client.isBiometricSignInEnabled())

            try await client.signOut()
            #expect(await client.sessionToken == nil)

            device.willAnswer(.present("owner"))
            let biometric = try await client.signInWithBiometrics(prompt: "Sign in to Bank")
            #expect(device.promptCount == 2, "biometric sign-in costs exactly one prompt")
            #expect(biometric.user == user)
            #expect(biometric.session.authentication == .init(method: .biometric, registrationID: registration.id))

            try await client.setPIN("482916")
            try await client.signOut()
            device.willAnswer(.present("owner"))
            let storedPIN = try await client.signInWithStoredPIN(prompt: "Sign in with your PIN")
            #expect(storedPIN.session.authentication.method == .pin)
            #expect(device.promptCount == 3)
            try await client.signOut()
            let typedPIN = try await client.signInWithPIN("482916")
            #expect(typedPIN.session.authentication.method == .pin)
            #expect(device.promptCount == 3, "a typed PIN needs no prompt")

            try await client.disableBiometricSignIn()
            #expect(try await server.registrations(token: try #require(await client.sessionToken)).filter { $0.kind == .biometric }.isEmpty)
            #expect(await client.isBiometricSignInEnabled() == false)
            await #expect(throws: BioAuthError.itemNotFound) { try await client.signInWithBiometrics(prompt: "p") }
            #expect(device.unansweredPromptCount == 0)
        }
    }

    @Test("biometric sign-in with each algorithm", arguments: [SignatureAlgorithm.es256, .ed25519])
    func biometricSignIn(algorithm: SignatureAlgorithm) async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server, algorithm: algorithm)
            let registration = try await account.enableBiometricsAndSignOut()
            #expect(registration.algorithm == algorithm)
            account.device.willAnswer(.present("owner"))
            let signedIn = try await account.client.signInWithBiometrics(prompt: "Sign in")
            #expect(signedIn.session.authentication.method == .biometric)
            #expect(account.device.promptCount == 2)
            // A second sign-in works too: every sign-in gets a fresh challenge.
            account.device.willAnswer(.present("owner"))
            let again = try await account.client.signInWithBiometrics(prompt: "Sign in")
            #expect(again.session.id != signedIn.session.id)
        }
    }

    @Test("the session kept behind biometrics is restored with one prompt; after sign-out it is gone")
    func restoreSession() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            try await account.enableBiometrics()
            let session = try #require(await account.client.session)
            let restarted = server.client(on: account.device)  // the app launched again
            account.device.willAnswer(.present("owner"))
            let restored = try await restarted.restoreSession(prompt: "Unlock")
            #expect(restored.session.id == session.id)
            #expect(account.device.promptCount == 2)
            try await restarted.signOut()
            await #expect(throws: BioAuthError.itemNotFound) { try await restarted.restoreSession(prompt: "Unlock") }
        }
    }

    @Test("PIN fallback when biometry is locked out")
    func pinFallbackAfterLockout() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            try await account.client.setPIN("5832", keepBehindBiometrics: false)
            _ = try await account.enableBiometricsAndSignOut()
            for _ in 0..<2 {  // two prompts of two failed attempts
                account.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
                await #expect(throws: BioAuthError.authenticationFailed) { try await account.client.signInWithBiometrics(prompt: "p") }
            }
            account.device.willAnswer(.presentUnenrolled)
            await #expect(throws: BioAuthError.biometryLockout) { try await account.client.signInWithBiometrics(prompt: "p") }
            let signedIn = try await account.client.signInWithPIN("5832")
            #expect(signedIn.session.authentication.method == .pin)
        }
    }

    @Test("server errors arrive as the contract's codes; no server is a transport failure")
    func serverAndTransportErrors() async throws {
        try await LoopbackServer.run { server in
            let client = server.client(on: SimulatedDevice())
            try await client.signUp(username: "bob", password: Account.password)
            let taken = await caught { try await client.signUp(username: "BOB", password: Account.password) }
            #expect(taken?.serverCode == .usernameTaken)
            let wrong = await caught { try await client.signIn(username: "bob", password: "wrong password") }
            let rejection = try #require(wrong?.rejection, "expected a server error, got \(String(describing: wrong))")
            #expect(rejection.code == .invalidCredentials && rejection.status == 401)
            #expect(await caught { try await client.enableBiometricSignIn(prompt: "p") } == .notSignedIn)
            #expect(await caught { try await client.setPIN("1234") } == .notSignedIn)
        }
        let offline = BioAuthClient(
            configuration: BioAuthConfiguration(serverURL: URL(string: "http://127.0.0.1:9")!, relyingPartyID: LoopbackServer.relyingPartyID),
            device: SimulatedDevice().backends
        )
        let failure = await caught { try await offline.signIn(username: "bob", password: Account.password) }
        #expect(failure?.code == .transport, "expected a transport failure, got \(String(describing: failure))")
    }

    @Test("passcode fallback only when opted in: the client's policy decides")
    func passcodeFallbackOptIn() async throws {
        try await LoopbackServer.run { server in
            let strict = try await Account.signedIn(on: server)
            _ = try await strict.enableBiometricsAndSignOut()
            strict.device.willAnswer(.passcode("123456"))
            await #expect(throws: BioAuthError.authenticationFailed) { try await strict.client.signInWithBiometrics(prompt: "p") }

            let lenient = try await Account.signedIn(on: server, policy: .biometricsOrPasscode)
            _ = try await lenient.enableBiometricsAndSignOut()
            lenient.device.willAnswer(.passcode("123456"))
            let signedIn = try await lenient.client.signInWithBiometrics(prompt: "p")
            #expect(signedIn.session.authentication.method == .biometric)
        }
    }
}
