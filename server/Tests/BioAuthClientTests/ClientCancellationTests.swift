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

    @Test(
        "a prompt that stays up after the sign-in was canceled: userCanceled at once; a late match signs nobody in, a late failure loses nothing",
        arguments: [ScriptedAnswer.present("owner"), .presentUnenrolled]
    )
    func promptStaysUpAfterCancel(late: ScriptedAnswer) async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometricsAndSignOut()
            account.device.setInvalidateClosesKeychainPrompts(false)
            account.device.willAnswer(.leaveUp)
            let client = account.client
            let signingIn = Task { try await client.signInWithBiometrics(prompt: "Sign in") }
            for _ in 0..<400 where account.device.openPromptCount != 1 { try await Task.sleep(for: .milliseconds(5)) }
            signingIn.cancel()
            await #expect(throws: BioAuthError.userCanceled) { try await signingIn.value }
            #expect(account.device.openPromptCount == 1, "the prompt is still up")
            account.device.answerPromptLeftUp(late)
            for _ in 0..<400 where account.device.openPromptCount != 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(account.device.openPromptCount == 0)
            #expect(await client.sessionToken == nil, "nothing was signed in")
            #expect(await client.isBiometricSignInEnabled(), "nothing was lost")
            account.device.willAnswer(.present("owner"))
            let signedIn = try await client.signInWithBiometrics(prompt: "Sign in")
            #expect(signedIn.session.authentication.registrationID == registration.id)
        }
    }
}
