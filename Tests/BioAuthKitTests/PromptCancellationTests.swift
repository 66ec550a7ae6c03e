@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

@testable @_spi(DeviceSeam) import BioAuthKit

/// A prompt is the platform's, and the user may leave it up: cancelling the app's task closes it
/// (`LAContext.invalidate()`) and the call ends with `userCanceled` at once, and while it is up
/// it holds none of Swift's cooperative threads.
@Suite("Cancelling a prompt")
struct PromptCancellationTests {
    /// Starts a signature with key `k` whose prompt the user leaves up, and cancels its task once the
    /// prompt is up: the call ends with userCanceled.
    private func cancelSignatureLeftUp(_ fixture: DeviceFixture) async throws {
        fixture.device.willAnswer(.leaveUp)
        let keys = fixture.keys
        let signing = Task { try await keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "Sign in") }
        #expect(try await fixture.device.waitForOpenPrompts(1))
        signing.cancel()
        await #expect(throws: BioAuthError.userCanceled) { try await signing.value }
    }

    @Test(
        "cancelling the task of a signature closes its prompt, and the call ends with userCanceled",
        arguments: [SignatureAlgorithm.es256, .ed25519]
    )
    func cancelSignature(algorithm: SignatureAlgorithm) async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k", algorithm: algorithm)
        try await cancelSignatureLeftUp(fixture)
        #expect(try await fixture.device.waitForOpenPrompts(0), "the prompt was closed")
        // The key is untouched: the next prompt signs.
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "Sign in").count > 0)
    }

    @Test("cancelling the task of a vault read closes its prompt, and the call ends with userCanceled")
    func cancelRead() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.willAnswer(.leaveUp)
        let vault = fixture.vault
        let reading = Task { try await vault.read("token", prompt: "Open") }
        #expect(try await fixture.device.waitForOpenPrompts(1))
        reading.cancel()
        await #expect(throws: BioAuthError.userCanceled) { try await reading.value }
        #expect(try await fixture.device.waitForOpenPrompts(0))
    }

    @Test("prompts left up hold no cooperative thread: more of them than cores are up at once, and other tasks still run")
    func promptsHoldNoCooperativeThread() async throws {
        let fixture = DeviceFixture()
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        for index in 0..<count { _ = try await fixture.keys.createKey(named: "k\(index)") }
        for _ in 0..<count { fixture.device.willAnswer(.leaveUp) }
        let keys = fixture.keys
        let signings = (0..<count).map { index in
            Task { try await keys.sign(bytes: Data("m".utf8), withKeyNamed: "k\(index)", prompt: "Sign in") }
        }
        #expect(try await fixture.device.waitForOpenPrompts(count), "every prompt is up at once")
        #expect(await Task { (1...1_000).reduce(0, +) }.value == 500_500, "the pool still runs other work")
        for signing in signings { signing.cancel() }
        for signing in signings { await #expect(throws: BioAuthError.userCanceled) { try await signing.value } }
        #expect(try await fixture.device.waitForOpenPrompts(0))
    }

    @Test(
        "a prompt that stays up after the app canceled it: userCanceled at once; a late match is not used, a late failure is no loss",
        arguments: [ScriptedAnswer.present("owner"), .presentUnenrolled]
    )
    func promptStaysUp(late: ScriptedAnswer) async throws {
        let fixture = DeviceFixture()
        fixture.device.setInvalidateClosesKeychainPrompts(false)
        _ = try await fixture.keys.createKey(named: "k")
        try await cancelSignatureLeftUp(fixture)
        #expect(fixture.device.openPromptCount == 1, "the prompt is still up")
        fixture.device.answerPromptLeftUp(late)
        #expect(try await fixture.device.waitForOpenPrompts(0), "the user answered it")
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        #expect(await !fixture.keys.enrollmentChanged(since: "k"))
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "Sign in").count > 0)
    }
}
