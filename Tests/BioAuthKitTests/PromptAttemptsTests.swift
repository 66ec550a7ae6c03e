import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

/// A prompt takes several attempts ("Try Face ID Again" after the first failure, LAContext.h), and
/// the lockout after five unsuccessful attempts counts attempts, not prompts.
@Suite("Prompts take attempts; the lockout counts attempts")
struct PromptAttemptsTests {
    @Test("a face that fails, then matches, in one prompt: the read succeeds with one prompt")
    func failThenMatchInOnePrompt() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.willAnswer(.presentUnenrolled, .present("owner"))
        #expect(try await fixture.vault.read("token", prompt: "p") == DeviceFixture.secret)
        #expect(fixture.device.promptCount == 1)
        #expect(fixture.device.failedAttemptCount == 0, "a match clears the failed attempts")
    }

    @Test("a prompt fails after its attempts (two by default, or as the device allows); each attempt counts toward the lockout")
    func promptFailsAfterItsAttempts() async throws {
        let fixture = DeviceFixture(biometry: .touchID)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.setAttemptsPerPrompt(3)
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled, .presentUnenrolled)
        let answer1 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer1 == .authenticationFailed)
        #expect(fixture.device.promptCount == 1)
        #expect(fixture.device.failedAttemptCount == 3)
        #expect(fixture.device.pendingAnswerCount == 0)
    }

    @Test("five failed attempts lock biometry, in however many prompts: two prompts of two, and one attempt in the third")
    func lockoutFollowsAttempts() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        for _ in 0..<2 {
            fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
            let answer2 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
            #expect(answer2 == .authenticationFailed)
        }
        #expect(!fixture.device.isBiometryLockedOut)
        fixture.device.willAnswer(.presentUnenrolled, .present("owner"))
        let answer3 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer3 == .biometryLockout)
        #expect(fixture.device.isBiometryLockedOut)
        #expect(fixture.device.promptCount == 3)
        #expect(fixture.device.pendingAnswerCount == 1, "the locked prompt took no further attempt")
    }

    @Test("a failed attempt with nothing more scripted: the user cancels the prompt")
    func unscriptedRetryCancels() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.willAnswer(.presentUnenrolled)
        let answer4 = await caught { try await fixture.vault.read("token", prompt: "p") }
        #expect(answer4 == .userCanceled)
        #expect(fixture.device.unansweredPromptCount == 1)
        #expect(fixture.device.failedAttemptCount == 1)
    }
}
