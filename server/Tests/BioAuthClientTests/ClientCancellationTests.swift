import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

/// An app cancels a sign-in the way it cancels any Swift task; the prompt closes with it.
@Suite("Cancelling a biometric sign-in")
struct ClientCancellationTests {
    @Test("cancelling the sign-in's task closes its prompt: userCanceled at once, no session, and the next sign-in works")
    func cancelBiometricSignIn() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            _ = try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.leaveUp)
            let client = account.client
            let signingIn = Task { try await client.signInWithBiometrics(prompt: "Sign in") }
            for _ in 0..<400 where account.device.openPromptCount != 1 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(account.device.openPromptCount == 1)
            signingIn.cancel()
            await #expect(throws: BioAuthError.userCanceled) { try await signingIn.value }
            #expect(await client.sessionToken == nil)
            account.device.willAnswer(.present("owner"))
            try await client.signInWithBiometrics(prompt: "Sign in")
            #expect(await client.sessionToken != nil)
            #expect(account.device.openPromptCount == 0)
        }
    }
}
